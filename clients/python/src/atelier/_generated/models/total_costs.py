from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TotalCosts")


@_attrs_define
class TotalCosts:
    """
    Attributes:
        estimated_usd (float):
        actual_usd (float): The run's total: its own spend and its sub-workflow children's (theirs in full, their
            children's included)
        own_actual_usd (float): What the run's own steps spent, its children's left out: each child bills its own, so a
            sum across runs (GET /v1/costs, budgets) adds this
        currency (str):
        status (str):
    """

    estimated_usd: float
    actual_usd: float
    own_actual_usd: float
    currency: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        estimated_usd = self.estimated_usd

        actual_usd = self.actual_usd

        own_actual_usd = self.own_actual_usd

        currency = self.currency

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "estimatedUsd": estimated_usd,
                "actualUsd": actual_usd,
                "ownActualUsd": own_actual_usd,
                "currency": currency,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        estimated_usd = d.pop("estimatedUsd")

        actual_usd = d.pop("actualUsd")

        own_actual_usd = d.pop("ownActualUsd")

        currency = d.pop("currency")

        status = d.pop("status")

        total_costs = cls(
            estimated_usd=estimated_usd,
            actual_usd=actual_usd,
            own_actual_usd=own_actual_usd,
            currency=currency,
            status=status,
        )

        total_costs.additional_properties = d
        return total_costs

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
