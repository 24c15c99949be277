from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.etag_mismatch_detail_code import EtagMismatchDetailCode

if TYPE_CHECKING:
    from ..models.etag_mismatch_detail_current import EtagMismatchDetailCurrent


T = TypeVar("T", bound="EtagMismatchDetail")


@_attrs_define
class EtagMismatchDetail:
    """
    Attributes:
        code (EtagMismatchDetailCode):
        message (str):
        current (EtagMismatchDetailCurrent):
    """

    code: EtagMismatchDetailCode
    message: str
    current: EtagMismatchDetailCurrent
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        current = self.current.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "current": current,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.etag_mismatch_detail_current import EtagMismatchDetailCurrent

        d = dict(src_dict)
        code = EtagMismatchDetailCode(d.pop("code"))

        message = d.pop("message")

        current = EtagMismatchDetailCurrent.from_dict(d.pop("current"))

        etag_mismatch_detail = cls(
            code=code,
            message=message,
            current=current,
        )

        etag_mismatch_detail.additional_properties = d
        return etag_mismatch_detail

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
