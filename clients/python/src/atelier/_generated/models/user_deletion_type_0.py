from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.user_deletion_type_0_status import UserDeletionType0Status

T = TypeVar("T", bound="UserDeletionType0")


@_attrs_define
class UserDeletionType0:
    """The standing account deletion request, if any

    Attributes:
        status (UserDeletionType0Status): pending: waiting for an operator, can be withdrawn; approved: purge scheduled
        requested_at (str):
        reason (None | str):
    """

    status: UserDeletionType0Status
    requested_at: str
    reason: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        requested_at = self.requested_at

        reason: None | str
        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "requestedAt": requested_at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = UserDeletionType0Status(d.pop("status"))

        requested_at = d.pop("requestedAt")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        user_deletion_type_0 = cls(
            status=status,
            requested_at=requested_at,
            reason=reason,
        )

        user_deletion_type_0.additional_properties = d
        return user_deletion_type_0

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
