from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.budget_enforcement_mode import BudgetEnforcementMode
from ..models.budget_period import BudgetPeriod
from ..models.budget_scope import BudgetScope

T = TypeVar("T", bound="Budget")


@_attrs_define
class Budget:
    """
    Attributes:
        id (str):
        scope (BudgetScope):
        workspace_id (UUID):
        project_id (None | UUID):
        limit_usd (float):
        period (BudgetPeriod):
        enforcement_mode (BudgetEnforcementMode):
        overage_usd (float | None):
        per_run_cap_usd (float | None):
        name (None | str):
        spend_usd (float): Actual cost plus the estimates of runs not yet settled, this period
        remaining_usd (float):
        created_at (str):
        updated_at (str):
    """

    id: str
    scope: BudgetScope
    workspace_id: UUID
    project_id: None | UUID
    limit_usd: float
    period: BudgetPeriod
    enforcement_mode: BudgetEnforcementMode
    overage_usd: float | None
    per_run_cap_usd: float | None
    name: None | str
    spend_usd: float
    remaining_usd: float
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        scope = self.scope.value

        workspace_id = str(self.workspace_id)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        limit_usd = self.limit_usd

        period = self.period.value

        enforcement_mode = self.enforcement_mode.value

        overage_usd: float | None
        overage_usd = self.overage_usd

        per_run_cap_usd: float | None
        per_run_cap_usd = self.per_run_cap_usd

        name: None | str
        name = self.name

        spend_usd = self.spend_usd

        remaining_usd = self.remaining_usd

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "scope": scope,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "limitUsd": limit_usd,
                "period": period,
                "enforcementMode": enforcement_mode,
                "overageUsd": overage_usd,
                "perRunCapUsd": per_run_cap_usd,
                "name": name,
                "spendUsd": spend_usd,
                "remainingUsd": remaining_usd,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        scope = BudgetScope(d.pop("scope"))

        workspace_id = UUID(d.pop("workspaceId"))

        def _parse_project_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        project_id = _parse_project_id(d.pop("projectId"))

        limit_usd = d.pop("limitUsd")

        period = BudgetPeriod(d.pop("period"))

        enforcement_mode = BudgetEnforcementMode(d.pop("enforcementMode"))

        def _parse_overage_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        overage_usd = _parse_overage_usd(d.pop("overageUsd"))

        def _parse_per_run_cap_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        per_run_cap_usd = _parse_per_run_cap_usd(d.pop("perRunCapUsd"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        spend_usd = d.pop("spendUsd")

        remaining_usd = d.pop("remainingUsd")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        budget = cls(
            id=id,
            scope=scope,
            workspace_id=workspace_id,
            project_id=project_id,
            limit_usd=limit_usd,
            period=period,
            enforcement_mode=enforcement_mode,
            overage_usd=overage_usd,
            per_run_cap_usd=per_run_cap_usd,
            name=name,
            spend_usd=spend_usd,
            remaining_usd=remaining_usd,
            created_at=created_at,
            updated_at=updated_at,
        )

        budget.additional_properties = d
        return budget

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
