from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.patch_budget_request_enforcement_mode import (
    PatchBudgetRequestEnforcementMode,
)
from ..models.patch_budget_request_period import PatchBudgetRequestPeriod
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchBudgetRequest")


@_attrs_define
class PatchBudgetRequest:
    """
    Example:
        {'limitUsd': 750, 'enforcementMode': 'allow_overage', 'overageUsd': 50}

    Attributes:
        limit_usd (float | Unset):
        period (PatchBudgetRequestPeriod | Unset):
        enforcement_mode (PatchBudgetRequestEnforcementMode | Unset):
        overage_usd (float | None | Unset):
        per_run_cap_usd (float | None | Unset):
        name (None | str | Unset):
    """

    limit_usd: float | Unset = UNSET
    period: PatchBudgetRequestPeriod | Unset = UNSET
    enforcement_mode: PatchBudgetRequestEnforcementMode | Unset = UNSET
    overage_usd: float | None | Unset = UNSET
    per_run_cap_usd: float | None | Unset = UNSET
    name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        limit_usd = self.limit_usd

        period: str | Unset = UNSET
        if not isinstance(self.period, Unset):
            period = self.period.value

        enforcement_mode: str | Unset = UNSET
        if not isinstance(self.enforcement_mode, Unset):
            enforcement_mode = self.enforcement_mode.value

        overage_usd: float | None | Unset
        if isinstance(self.overage_usd, Unset):
            overage_usd = UNSET
        else:
            overage_usd = self.overage_usd

        per_run_cap_usd: float | None | Unset
        if isinstance(self.per_run_cap_usd, Unset):
            per_run_cap_usd = UNSET
        else:
            per_run_cap_usd = self.per_run_cap_usd

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if limit_usd is not UNSET:
            field_dict["limitUsd"] = limit_usd
        if period is not UNSET:
            field_dict["period"] = period
        if enforcement_mode is not UNSET:
            field_dict["enforcementMode"] = enforcement_mode
        if overage_usd is not UNSET:
            field_dict["overageUsd"] = overage_usd
        if per_run_cap_usd is not UNSET:
            field_dict["perRunCapUsd"] = per_run_cap_usd
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        limit_usd = d.pop("limitUsd", UNSET)

        _period = d.pop("period", UNSET)
        period: PatchBudgetRequestPeriod | Unset
        if isinstance(_period, Unset):
            period = UNSET
        else:
            period = PatchBudgetRequestPeriod(_period)

        _enforcement_mode = d.pop("enforcementMode", UNSET)
        enforcement_mode: PatchBudgetRequestEnforcementMode | Unset
        if isinstance(_enforcement_mode, Unset):
            enforcement_mode = UNSET
        else:
            enforcement_mode = PatchBudgetRequestEnforcementMode(_enforcement_mode)

        def _parse_overage_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        overage_usd = _parse_overage_usd(d.pop("overageUsd", UNSET))

        def _parse_per_run_cap_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        per_run_cap_usd = _parse_per_run_cap_usd(d.pop("perRunCapUsd", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        patch_budget_request = cls(
            limit_usd=limit_usd,
            period=period,
            enforcement_mode=enforcement_mode,
            overage_usd=overage_usd,
            per_run_cap_usd=per_run_cap_usd,
            name=name,
        )

        patch_budget_request.additional_properties = d
        return patch_budget_request

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
