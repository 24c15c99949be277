from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.user_deletion_type_0 import UserDeletionType0


T = TypeVar("T", bound="User")


@_attrs_define
class User:
    """
    Attributes:
        id (UUID):
        email (str):
        name (str):
        default_workspace_id (None | UUID): The first workspace the user was made a member of
        created_at (str):
        updated_at (str):
        deletion (None | UserDeletionType0): The standing account deletion request, if any
    """

    id: UUID
    email: str
    name: str
    default_workspace_id: None | UUID
    created_at: str
    updated_at: str
    deletion: None | UserDeletionType0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.user_deletion_type_0 import UserDeletionType0

        id = str(self.id)

        email = self.email

        name = self.name

        default_workspace_id: None | str
        if isinstance(self.default_workspace_id, UUID):
            default_workspace_id = str(self.default_workspace_id)
        else:
            default_workspace_id = self.default_workspace_id

        created_at = self.created_at

        updated_at = self.updated_at

        deletion: dict[str, Any] | None
        if isinstance(self.deletion, UserDeletionType0):
            deletion = self.deletion.to_dict()
        else:
            deletion = self.deletion

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "email": email,
                "name": name,
                "defaultWorkspaceId": default_workspace_id,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "deletion": deletion,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.user_deletion_type_0 import UserDeletionType0

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        email = d.pop("email")

        name = d.pop("name")

        def _parse_default_workspace_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                default_workspace_id_type_0 = UUID(data)

                return default_workspace_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        default_workspace_id = _parse_default_workspace_id(d.pop("defaultWorkspaceId"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        def _parse_deletion(data: object) -> None | UserDeletionType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                deletion_type_0 = UserDeletionType0.from_dict(data)

                return deletion_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UserDeletionType0, data)

        deletion = _parse_deletion(d.pop("deletion"))

        user = cls(
            id=id,
            email=email,
            name=name,
            default_workspace_id=default_workspace_id,
            created_at=created_at,
            updated_at=updated_at,
            deletion=deletion,
        )

        user.additional_properties = d
        return user

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
