from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_format import CharacterFormat

if TYPE_CHECKING:
    from ..models.character_reference import CharacterReference
    from ..models.character_usable_today import CharacterUsableToday
    from ..models.character_version import CharacterVersion
    from ..models.persona import Persona


T = TypeVar("T", bound="Character")


@_attrs_define
class Character:
    """
    Attributes:
        id (str):
        workspace_id (UUID):
        project_id (UUID):
        name (str):
        format_ (CharacterFormat):
        persona (Persona):
        references (list[CharacterReference]):
        latest_version (CharacterVersion | None):
        usable_today (CharacterUsableToday): The gate for an image use today, naming no provider
        archived (bool):
        archived_at (None | str):
        etag (str):
        created_at (str):
        updated_at (str):
    """

    id: str
    workspace_id: UUID
    project_id: UUID
    name: str
    format_: CharacterFormat
    persona: Persona
    references: list[CharacterReference]
    latest_version: CharacterVersion | None
    usable_today: CharacterUsableToday
    archived: bool
    archived_at: None | str
    etag: str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.character_version import CharacterVersion

        id = self.id

        workspace_id = str(self.workspace_id)

        project_id = str(self.project_id)

        name = self.name

        format_ = self.format_.value

        persona = self.persona.to_dict()

        references = []
        for references_item_data in self.references:
            references_item = references_item_data.to_dict()
            references.append(references_item)

        latest_version: dict[str, Any] | None
        if isinstance(self.latest_version, CharacterVersion):
            latest_version = self.latest_version.to_dict()
        else:
            latest_version = self.latest_version

        usable_today = self.usable_today.to_dict()

        archived = self.archived

        archived_at: None | str
        archived_at = self.archived_at

        etag = self.etag

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "name": name,
                "format": format_,
                "persona": persona,
                "references": references,
                "latestVersion": latest_version,
                "usableToday": usable_today,
                "archived": archived,
                "archivedAt": archived_at,
                "etag": etag,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.character_reference import CharacterReference
        from ..models.character_usable_today import CharacterUsableToday
        from ..models.character_version import CharacterVersion
        from ..models.persona import Persona

        d = dict(src_dict)
        id = d.pop("id")

        workspace_id = UUID(d.pop("workspaceId"))

        project_id = UUID(d.pop("projectId"))

        name = d.pop("name")

        format_ = CharacterFormat(d.pop("format"))

        persona = Persona.from_dict(d.pop("persona"))

        references = []
        _references = d.pop("references")
        for references_item_data in _references:
            references_item = CharacterReference.from_dict(references_item_data)

            references.append(references_item)

        def _parse_latest_version(data: object) -> CharacterVersion | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                latest_version_type_0 = CharacterVersion.from_dict(data)

                return latest_version_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CharacterVersion | None, data)

        latest_version = _parse_latest_version(d.pop("latestVersion"))

        usable_today = CharacterUsableToday.from_dict(d.pop("usableToday"))

        archived = d.pop("archived")

        def _parse_archived_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        archived_at = _parse_archived_at(d.pop("archivedAt"))

        etag = d.pop("etag")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        character = cls(
            id=id,
            workspace_id=workspace_id,
            project_id=project_id,
            name=name,
            format_=format_,
            persona=persona,
            references=references,
            latest_version=latest_version,
            usable_today=usable_today,
            archived=archived,
            archived_at=archived_at,
            etag=etag,
            created_at=created_at,
            updated_at=updated_at,
        )

        character.additional_properties = d
        return character

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
