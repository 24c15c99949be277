from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ProjectUpdateRequest")


@_attrs_define
class ProjectUpdateRequest:
    """
    Example:
        {'name': 'Spring newsletter 2027', 'clientId': '1e8a6c3d-5b7f-4a92-b0d4-7c2f9e1a3b65'}

    Attributes:
        name (str | Unset):
        description (None | str | Unset):
        archived (bool | Unset):
        client_id (None | Unset | UUID): Links the project to a client of its workspace; null unlinks
    """

    name: str | Unset = UNSET
    description: None | str | Unset = UNSET
    archived: bool | Unset = UNSET
    client_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        archived = self.archived

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        elif isinstance(self.client_id, UUID):
            client_id = str(self.client_id)
        else:
            client_id = self.client_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if archived is not UNSET:
            field_dict["archived"] = archived
        if client_id is not UNSET:
            field_dict["clientId"] = client_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        archived = d.pop("archived", UNSET)

        def _parse_client_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                client_id_type_0 = UUID(data)

                return client_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        project_update_request = cls(
            name=name,
            description=description,
            archived=archived,
            client_id=client_id,
        )

        project_update_request.additional_properties = d
        return project_update_request

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
