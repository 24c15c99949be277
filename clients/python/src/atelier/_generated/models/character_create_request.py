from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_create_request_format import CharacterCreateRequestFormat
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.persona import Persona


T = TypeVar("T", bound="CharacterCreateRequest")


@_attrs_define
class CharacterCreateRequest:
    """
    Example:
        {'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'name': 'Bea the Beekeeper', 'format': 'synthetic',
            'persona': {'summary': 'A cheerful urban beekeeper who explains things simply'}, 'requestId': 'create-
            bea-2026-11-26'}

    Attributes:
        project_id (UUID):
        name (str):
        format_ (CharacterCreateRequestFormat):
        persona (Persona | Unset):
        request_id (str | Unset): A retry with the same requestId and body returns the first answer
    """

    project_id: UUID
    name: str
    format_: CharacterCreateRequestFormat
    persona: Persona | Unset = UNSET
    request_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        project_id = str(self.project_id)

        name = self.name

        format_ = self.format_.value

        persona: dict[str, Any] | Unset = UNSET
        if not isinstance(self.persona, Unset):
            persona = self.persona.to_dict()

        request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "projectId": project_id,
                "name": name,
                "format": format_,
            }
        )
        if persona is not UNSET:
            field_dict["persona"] = persona
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.persona import Persona

        d = dict(src_dict)
        project_id = UUID(d.pop("projectId"))

        name = d.pop("name")

        format_ = CharacterCreateRequestFormat(d.pop("format"))

        _persona = d.pop("persona", UNSET)
        persona: Persona | Unset
        if isinstance(_persona, Unset):
            persona = UNSET
        else:
            persona = Persona.from_dict(_persona)

        request_id = d.pop("requestId", UNSET)

        character_create_request = cls(
            project_id=project_id,
            name=name,
            format_=format_,
            persona=persona,
            request_id=request_id,
        )

        character_create_request.additional_properties = d
        return character_create_request

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
