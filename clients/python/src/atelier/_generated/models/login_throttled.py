from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.login_throttled_detail import LoginThrottledDetail


T = TypeVar("T", bound="LoginThrottled")


@_attrs_define
class LoginThrottled:
    """
    Attributes:
        detail (LoginThrottledDetail):
    """

    detail: LoginThrottledDetail
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        detail = self.detail.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "detail": detail,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.login_throttled_detail import LoginThrottledDetail

        d = dict(src_dict)
        detail = LoginThrottledDetail.from_dict(d.pop("detail"))

        login_throttled = cls(
            detail=detail,
        )

        login_throttled.additional_properties = d
        return login_throttled

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
