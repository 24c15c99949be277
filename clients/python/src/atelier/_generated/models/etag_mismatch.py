from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.etag_mismatch_detail import EtagMismatchDetail


T = TypeVar("T", bound="EtagMismatch")


@_attrs_define
class EtagMismatch:
    """
    Example:
        {'detail': {'code': 'etag_mismatch', 'message': 'the client changed since you read it', 'current': {'id':
            '1e8a6c3d-5b7f-4a92-b0d4-7c2f9e1a3b65', 'name': 'Acme Honey Co.', 'status': 'active', 'etag': '"d41d8cd98f"'}}}

    Attributes:
        detail (EtagMismatchDetail):
    """

    detail: EtagMismatchDetail
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
        from ..models.etag_mismatch_detail import EtagMismatchDetail

        d = dict(src_dict)
        detail = EtagMismatchDetail.from_dict(d.pop("detail"))

        etag_mismatch = cls(
            detail=detail,
        )

        etag_mismatch.additional_properties = d
        return etag_mismatch

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
