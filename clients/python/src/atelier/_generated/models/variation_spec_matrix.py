from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.variation_spec_matrix_resolver import VariationSpecMatrixResolver

if TYPE_CHECKING:
    from ..models.variation_spec_matrix_params import VariationSpecMatrixParams


T = TypeVar("T", bound="VariationSpecMatrix")


@_attrs_define
class VariationSpecMatrix:
    """
    Attributes:
        resolver (VariationSpecMatrixResolver):
        params (VariationSpecMatrixParams):
    """

    resolver: VariationSpecMatrixResolver
    params: VariationSpecMatrixParams
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        resolver = self.resolver.value

        params = self.params.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "resolver": resolver,
                "params": params,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.variation_spec_matrix_params import VariationSpecMatrixParams

        d = dict(src_dict)
        resolver = VariationSpecMatrixResolver(d.pop("resolver"))

        params = VariationSpecMatrixParams.from_dict(d.pop("params"))

        variation_spec_matrix = cls(
            resolver=resolver,
            params=params,
        )

        variation_spec_matrix.additional_properties = d
        return variation_spec_matrix

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
