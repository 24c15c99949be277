from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.estimated_cost_currency import EstimatedCostCurrency

T = TypeVar("T", bound="EstimatedCost")


@_attrs_define
class EstimatedCost:
    """
    Attributes:
        min_ (float):
        typical (float):
        max_ (float):
        currency (EstimatedCostCurrency):
    """

    min_: float
    typical: float
    max_: float
    currency: EstimatedCostCurrency
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        min_ = self.min_

        typical = self.typical

        max_ = self.max_

        currency = self.currency.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "min": min_,
                "typical": typical,
                "max": max_,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        min_ = d.pop("min")

        typical = d.pop("typical")

        max_ = d.pop("max")

        currency = EstimatedCostCurrency(d.pop("currency"))

        estimated_cost = cls(
            min_=min_,
            typical=typical,
            max_=max_,
            currency=currency,
        )

        estimated_cost.additional_properties = d
        return estimated_cost

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
