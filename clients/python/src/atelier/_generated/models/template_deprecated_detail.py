from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.template_deprecated_detail_code import TemplateDeprecatedDetailCode

T = TypeVar("T", bound="TemplateDeprecatedDetail")


@_attrs_define
class TemplateDeprecatedDetail:
    """
    Attributes:
        code (TemplateDeprecatedDetailCode):
        template_id (str):
        superseded_by (None | str):
        message (str):
    """

    code: TemplateDeprecatedDetailCode
    template_id: str
    superseded_by: None | str
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        template_id = self.template_id

        superseded_by: None | str
        superseded_by = self.superseded_by

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "templateId": template_id,
                "supersededBy": superseded_by,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = TemplateDeprecatedDetailCode(d.pop("code"))

        template_id = d.pop("templateId")

        def _parse_superseded_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        superseded_by = _parse_superseded_by(d.pop("supersededBy"))

        message = d.pop("message")

        template_deprecated_detail = cls(
            code=code,
            template_id=template_id,
            superseded_by=superseded_by,
            message=message,
        )

        template_deprecated_detail.additional_properties = d
        return template_deprecated_detail

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
