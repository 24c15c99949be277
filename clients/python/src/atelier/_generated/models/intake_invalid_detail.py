from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.intake_invalid_detail_code import IntakeInvalidDetailCode
from ..models.intake_invalid_detail_error import IntakeInvalidDetailError
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.intake_invalid_detail_variations_item import (
        IntakeInvalidDetailVariationsItem,
    )


T = TypeVar("T", bound="IntakeInvalidDetail")


@_attrs_define
class IntakeInvalidDetail:
    """
    Attributes:
        error (IntakeInvalidDetailError):
        code (IntakeInvalidDetailCode):
        fields (list[str]):
        variations (list[IntakeInvalidDetailVariationsItem] | Unset):
    """

    error: IntakeInvalidDetailError
    code: IntakeInvalidDetailCode
    fields: list[str]
    variations: list[IntakeInvalidDetailVariationsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error.value

        code = self.code.value

        fields = self.fields

        variations: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.variations, Unset):
            variations = []
            for variations_item_data in self.variations:
                variations_item = variations_item_data.to_dict()
                variations.append(variations_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "code": code,
                "fields": fields,
            }
        )
        if variations is not UNSET:
            field_dict["variations"] = variations

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.intake_invalid_detail_variations_item import (
            IntakeInvalidDetailVariationsItem,
        )

        d = dict(src_dict)
        error = IntakeInvalidDetailError(d.pop("error"))

        code = IntakeInvalidDetailCode(d.pop("code"))

        fields = cast(list[str], d.pop("fields"))

        _variations = d.pop("variations", UNSET)
        variations: list[IntakeInvalidDetailVariationsItem] | Unset = UNSET
        if _variations is not UNSET:
            variations = []
            for variations_item_data in _variations:
                variations_item = IntakeInvalidDetailVariationsItem.from_dict(
                    variations_item_data
                )

                variations.append(variations_item)

        intake_invalid_detail = cls(
            error=error,
            code=code,
            fields=fields,
            variations=variations,
        )

        intake_invalid_detail.additional_properties = d
        return intake_invalid_detail

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
