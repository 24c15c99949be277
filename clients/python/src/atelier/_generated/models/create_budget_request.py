from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_budget_request_enforcement_mode import (
    CreateBudgetRequestEnforcementMode,
)
from ..models.create_budget_request_period import CreateBudgetRequestPeriod
from ..models.create_budget_request_scope import CreateBudgetRequestScope
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateBudgetRequest")


@_attrs_define
class CreateBudgetRequest:
    """
    Example:
        {'scope': 'workspace', 'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'limitUsd': 500, 'period':
            'month', 'enforcementMode': 'hard_stop', 'perRunCapUsd': 5, 'name': 'Monthly content budget'}

    Attributes:
        scope (CreateBudgetRequestScope):
        workspace_id (UUID):
        limit_usd (float):
        period (CreateBudgetRequestPeriod):
        enforcement_mode (CreateBudgetRequestEnforcementMode):
        project_id (UUID | Unset):
        overage_usd (float | Unset):
        per_run_cap_usd (float | Unset):
        name (str | Unset):
    """

    scope: CreateBudgetRequestScope
    workspace_id: UUID
    limit_usd: float
    period: CreateBudgetRequestPeriod
    enforcement_mode: CreateBudgetRequestEnforcementMode
    project_id: UUID | Unset = UNSET
    overage_usd: float | Unset = UNSET
    per_run_cap_usd: float | Unset = UNSET
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        scope = self.scope.value

        workspace_id = str(self.workspace_id)

        limit_usd = self.limit_usd

        period = self.period.value

        enforcement_mode = self.enforcement_mode.value

        project_id: str | Unset = UNSET
        if not isinstance(self.project_id, Unset):
            project_id = str(self.project_id)

        overage_usd = self.overage_usd

        per_run_cap_usd = self.per_run_cap_usd

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "scope": scope,
                "workspaceId": workspace_id,
                "limitUsd": limit_usd,
                "period": period,
                "enforcementMode": enforcement_mode,
            }
        )
        if project_id is not UNSET:
            field_dict["projectId"] = project_id
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
        scope = CreateBudgetRequestScope(d.pop("scope"))

        workspace_id = UUID(d.pop("workspaceId"))

        limit_usd = d.pop("limitUsd")

        period = CreateBudgetRequestPeriod(d.pop("period"))

        enforcement_mode = CreateBudgetRequestEnforcementMode(d.pop("enforcementMode"))

        _project_id = d.pop("projectId", UNSET)
        project_id: UUID | Unset
        if isinstance(_project_id, Unset):
            project_id = UNSET
        else:
            project_id = UUID(_project_id)

        overage_usd = d.pop("overageUsd", UNSET)

        per_run_cap_usd = d.pop("perRunCapUsd", UNSET)

        name = d.pop("name", UNSET)

        create_budget_request = cls(
            scope=scope,
            workspace_id=workspace_id,
            limit_usd=limit_usd,
            period=period,
            enforcement_mode=enforcement_mode,
            project_id=project_id,
            overage_usd=overage_usd,
            per_run_cap_usd=per_run_cap_usd,
            name=name,
        )

        create_budget_request.additional_properties = d
        return create_budget_request

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
