from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="EstimateRequestBudgetPolicy")


@_attrs_define
class EstimateRequestBudgetPolicy:
    """
    Attributes:
        per_run_cap_usd (float | Unset):
    """

    per_run_cap_usd: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        per_run_cap_usd = self.per_run_cap_usd

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if per_run_cap_usd is not UNSET:
            field_dict["perRunCapUsd"] = per_run_cap_usd

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        per_run_cap_usd = d.pop("perRunCapUsd", UNSET)

        estimate_request_budget_policy = cls(
            per_run_cap_usd=per_run_cap_usd,
        )

        estimate_request_budget_policy.additional_properties = d
        return estimate_request_budget_policy

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
