from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.project_kind import ProjectKind

T = TypeVar("T", bound="Project")


@_attrs_define
class Project:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        name (str):
        kind (ProjectKind):
        description (None | str):
        client_id (None | UUID):
        archived (bool):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    workspace_id: UUID
    name: str
    kind: ProjectKind
    description: None | str
    client_id: None | UUID
    archived: bool
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        name = self.name

        kind = self.kind.value

        description: None | str
        description = self.description

        client_id: None | str
        if isinstance(self.client_id, UUID):
            client_id = str(self.client_id)
        else:
            client_id = self.client_id

        archived = self.archived

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "name": name,
                "kind": kind,
                "description": description,
                "clientId": client_id,
                "archived": archived,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspaceId"))

        name = d.pop("name")

        kind = ProjectKind(d.pop("kind"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_client_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                client_id_type_0 = UUID(data)

                return client_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        client_id = _parse_client_id(d.pop("clientId"))

        archived = d.pop("archived")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        project = cls(
            id=id,
            workspace_id=workspace_id,
            name=name,
            kind=kind,
            description=description,
            client_id=client_id,
            archived=archived,
            created_at=created_at,
            updated_at=updated_at,
        )

        project.additional_properties = d
        return project

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
