from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.login_throttled_detail_code import LoginThrottledDetailCode

T = TypeVar("T", bound="LoginThrottledDetail")


@_attrs_define
class LoginThrottledDetail:
    """
    Attributes:
        code (LoginThrottledDetailCode):
        message (str):
        retry_after_seconds (int): The same number of seconds as the Retry-After header
    """

    code: LoginThrottledDetailCode
    message: str
    retry_after_seconds: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        retry_after_seconds = self.retry_after_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "retryAfterSeconds": retry_after_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = LoginThrottledDetailCode(d.pop("code"))

        message = d.pop("message")

        retry_after_seconds = d.pop("retryAfterSeconds")

        login_throttled_detail = cls(
            code=code,
            message=message,
            retry_after_seconds=retry_after_seconds,
        )

        login_throttled_detail.additional_properties = d
        return login_throttled_detail

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
