from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_version_format import CharacterVersionFormat
from ..models.character_version_status import CharacterVersionStatus

if TYPE_CHECKING:
    from ..models.character_binding import CharacterBinding
    from ..models.character_reference import CharacterReference
    from ..models.persona import Persona


T = TypeVar("T", bound="CharacterVersion")


@_attrs_define
class CharacterVersion:
    """
    Attributes:
        number (int):
        character_id (str):
        format_ (CharacterVersionFormat):
        name (str):
        persona (Persona):
        references (list[CharacterReference]):
        subject_id (None | UUID):
        note (None | str):
        status (CharacterVersionStatus):
        retired_at (None | str):
        retired_reason (None | str):
        created_at (str):
        bindings (list[CharacterBinding]): Provider copies of this version
    """

    number: int
    character_id: str
    format_: CharacterVersionFormat
    name: str
    persona: Persona
    references: list[CharacterReference]
    subject_id: None | UUID
    note: None | str
    status: CharacterVersionStatus
    retired_at: None | str
    retired_reason: None | str
    created_at: str
    bindings: list[CharacterBinding]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        character_id = self.character_id

        format_ = self.format_.value

        name = self.name

        persona = self.persona.to_dict()

        references = []
        for references_item_data in self.references:
            references_item = references_item_data.to_dict()
            references.append(references_item)

        subject_id: None | str
        if isinstance(self.subject_id, UUID):
            subject_id = str(self.subject_id)
        else:
            subject_id = self.subject_id

        note: None | str
        note = self.note

        status = self.status.value

        retired_at: None | str
        retired_at = self.retired_at

        retired_reason: None | str
        retired_reason = self.retired_reason

        created_at = self.created_at

        bindings = []
        for bindings_item_data in self.bindings:
            bindings_item = bindings_item_data.to_dict()
            bindings.append(bindings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "characterId": character_id,
                "format": format_,
                "name": name,
                "persona": persona,
                "references": references,
                "subjectId": subject_id,
                "note": note,
                "status": status,
                "retiredAt": retired_at,
                "retiredReason": retired_reason,
                "createdAt": created_at,
                "bindings": bindings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.character_binding import CharacterBinding
        from ..models.character_reference import CharacterReference
        from ..models.persona import Persona

        d = dict(src_dict)
        number = d.pop("number")

        character_id = d.pop("characterId")

        format_ = CharacterVersionFormat(d.pop("format"))

        name = d.pop("name")

        persona = Persona.from_dict(d.pop("persona"))

        references = []
        _references = d.pop("references")
        for references_item_data in _references:
            references_item = CharacterReference.from_dict(references_item_data)

            references.append(references_item)

        def _parse_subject_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                subject_id_type_0 = UUID(data)

                return subject_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        subject_id = _parse_subject_id(d.pop("subjectId"))

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))

        status = CharacterVersionStatus(d.pop("status"))

        def _parse_retired_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        retired_at = _parse_retired_at(d.pop("retiredAt"))

        def _parse_retired_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        retired_reason = _parse_retired_reason(d.pop("retiredReason"))

        created_at = d.pop("createdAt")

        bindings = []
        _bindings = d.pop("bindings")
        for bindings_item_data in _bindings:
            bindings_item = CharacterBinding.from_dict(bindings_item_data)

            bindings.append(bindings_item)

        character_version = cls(
            number=number,
            character_id=character_id,
            format_=format_,
            name=name,
            persona=persona,
            references=references,
            subject_id=subject_id,
            note=note,
            status=status,
            retired_at=retired_at,
            retired_reason=retired_reason,
            created_at=created_at,
            bindings=bindings,
        )

        character_version.additional_properties = d
        return character_version

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
