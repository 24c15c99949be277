from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.variation_spec_matrix_params_axes import VariationSpecMatrixParamsAxes


T = TypeVar("T", bound="VariationSpecMatrixParams")


@_attrs_define
class VariationSpecMatrixParams:
    """
    Attributes:
        axes (VariationSpecMatrixParamsAxes):
    """

    axes: VariationSpecMatrixParamsAxes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        axes = self.axes.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "axes": axes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.variation_spec_matrix_params_axes import (
            VariationSpecMatrixParamsAxes,
        )

        d = dict(src_dict)
        axes = VariationSpecMatrixParamsAxes.from_dict(d.pop("axes"))

        variation_spec_matrix_params = cls(
            axes=axes,
        )

        variation_spec_matrix_params.additional_properties = d
        return variation_spec_matrix_params

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
