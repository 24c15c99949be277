from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.budget_refusal_detail_code import BudgetRefusalDetailCode
from ..models.budget_refusal_detail_reason import BudgetRefusalDetailReason

T = TypeVar("T", bound="BudgetRefusalDetail")


@_attrs_define
class BudgetRefusalDetail:
    """
    Attributes:
        code (BudgetRefusalDetailCode):
        reason (BudgetRefusalDetailReason):
        budget_id (None | str):
        scope (str):
        enforcement_mode (str):
        limit_usd (float):
        spend_usd (float):
        run_estimate_usd (float):
        remaining_usd (float):
    """

    code: BudgetRefusalDetailCode
    reason: BudgetRefusalDetailReason
    budget_id: None | str
    scope: str
    enforcement_mode: str
    limit_usd: float
    spend_usd: float
    run_estimate_usd: float
    remaining_usd: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        reason = self.reason.value

        budget_id: None | str
        budget_id = self.budget_id

        scope = self.scope

        enforcement_mode = self.enforcement_mode

        limit_usd = self.limit_usd

        spend_usd = self.spend_usd

        run_estimate_usd = self.run_estimate_usd

        remaining_usd = self.remaining_usd

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "reason": reason,
                "budgetId": budget_id,
                "scope": scope,
                "enforcementMode": enforcement_mode,
                "limitUsd": limit_usd,
                "spendUsd": spend_usd,
                "runEstimateUsd": run_estimate_usd,
                "remainingUsd": remaining_usd,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = BudgetRefusalDetailCode(d.pop("code"))

        reason = BudgetRefusalDetailReason(d.pop("reason"))

        def _parse_budget_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        budget_id = _parse_budget_id(d.pop("budgetId"))

        scope = d.pop("scope")

        enforcement_mode = d.pop("enforcementMode")

        limit_usd = d.pop("limitUsd")

        spend_usd = d.pop("spendUsd")

        run_estimate_usd = d.pop("runEstimateUsd")

        remaining_usd = d.pop("remainingUsd")

        budget_refusal_detail = cls(
            code=code,
            reason=reason,
            budget_id=budget_id,
            scope=scope,
            enforcement_mode=enforcement_mode,
            limit_usd=limit_usd,
            spend_usd=spend_usd,
            run_estimate_usd=run_estimate_usd,
            remaining_usd=remaining_usd,
        )

        budget_refusal_detail.additional_properties = d
        return budget_refusal_detail

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
