from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.template_deprecated_detail import TemplateDeprecatedDetail


T = TypeVar("T", bound="TemplateDeprecated")


@_attrs_define
class TemplateDeprecated:
    """
    Example:
        {'detail': {'code': 'template_deprecated', 'templateId': 'plan-research-brief', 'supersededBy': 'plan-research-
            report', 'message': 'plan-research-brief is deprecated; use plan-research-report'}}

    Attributes:
        detail (TemplateDeprecatedDetail):
    """

    detail: TemplateDeprecatedDetail
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
        from ..models.template_deprecated_detail import TemplateDeprecatedDetail

        d = dict(src_dict)
        detail = TemplateDeprecatedDetail.from_dict(d.pop("detail"))

        template_deprecated = cls(
            detail=detail,
        )

        template_deprecated.additional_properties = d
        return template_deprecated

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
