from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.keyed_invalid_detail_code import KeyedInvalidDetailCode
from ..models.keyed_invalid_detail_error import KeyedInvalidDetailError

T = TypeVar("T", bound="KeyedInvalidDetail")


@_attrs_define
class KeyedInvalidDetail:
    """
    Attributes:
        error (KeyedInvalidDetailError):
        code (KeyedInvalidDetailCode):
        message (str):
    """

    error: KeyedInvalidDetailError
    code: KeyedInvalidDetailCode
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error.value

        code = self.code.value

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        error = KeyedInvalidDetailError(d.pop("error"))

        code = KeyedInvalidDetailCode(d.pop("code"))

        message = d.pop("message")

        keyed_invalid_detail = cls(
            error=error,
            code=code,
            message=message,
        )

        keyed_invalid_detail.additional_properties = d
        return keyed_invalid_detail

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
