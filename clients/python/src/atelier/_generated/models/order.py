from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.order_execution_mode import OrderExecutionMode
from ..models.order_priority import OrderPriority
from ..models.order_status import OrderStatus

if TYPE_CHECKING:
    from ..models.order_counts import OrderCounts
    from ..models.order_provider_overrides import OrderProviderOverrides


T = TypeVar("T", bound="Order")


@_attrs_define
class Order:
    """
    Example:
        {'id': 'order-5b8e2c41', 'workflowId': 'plan-research-report', 'workflowVersion': '2026.11.01', 'status':
            'attention', 'executionMode': 'standard', 'targetCount': 3, 'counts': {'planned': 0, 'running': 0, 'succeeded':
            2, 'failed': 1, 'skipped': 0, 'cancelled': 0}, 'estimatedCostUsd': 0.126, 'actualCostUsd': 0.089,
            'budgetLimitUsd': 12.5, 'budgetEnforcementMode': 'hard_stop', 'currency': 'USD', 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'planArtifactId':
            None, 'priority': 'normal', 'maxConcurrency': None, 'providerOverrides': {}, 'acceptGapReason': None,
            'failureReason': None, 'createdAt': '2026-11-26T10:20:00.000Z', 'startedAt': '2026-11-26T10:21:12.500Z',
            'finishedAt': None}

    Attributes:
        id (str):
        workflow_id (str):
        workflow_version (str):
        status (OrderStatus):
        execution_mode (OrderExecutionMode):
        target_count (int):
        counts (OrderCounts):
        estimated_cost_usd (float):
        actual_cost_usd (float):
        budget_limit_usd (float | None):
        budget_enforcement_mode (str):
        currency (str):
        workspace_id (UUID):
        project_id (None | UUID):
        plan_artifact_id (None | str):
        priority (OrderPriority):
        max_concurrency (int | None): As asked at creation; null: the deployment's setting
        provider_overrides (OrderProviderOverrides):
        accept_gap_reason (None | str):
        failure_reason (None | str):
        created_at (str):
        started_at (None | str):
        finished_at (None | str):
    """

    id: str
    workflow_id: str
    workflow_version: str
    status: OrderStatus
    execution_mode: OrderExecutionMode
    target_count: int
    counts: OrderCounts
    estimated_cost_usd: float
    actual_cost_usd: float
    budget_limit_usd: float | None
    budget_enforcement_mode: str
    currency: str
    workspace_id: UUID
    project_id: None | UUID
    plan_artifact_id: None | str
    priority: OrderPriority
    max_concurrency: int | None
    provider_overrides: OrderProviderOverrides
    accept_gap_reason: None | str
    failure_reason: None | str
    created_at: str
    started_at: None | str
    finished_at: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        workflow_id = self.workflow_id

        workflow_version = self.workflow_version

        status = self.status.value

        execution_mode = self.execution_mode.value

        target_count = self.target_count

        counts = self.counts.to_dict()

        estimated_cost_usd = self.estimated_cost_usd

        actual_cost_usd = self.actual_cost_usd

        budget_limit_usd: float | None
        budget_limit_usd = self.budget_limit_usd

        budget_enforcement_mode = self.budget_enforcement_mode

        currency = self.currency

        workspace_id = str(self.workspace_id)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        plan_artifact_id: None | str
        plan_artifact_id = self.plan_artifact_id

        priority = self.priority.value

        max_concurrency: int | None
        max_concurrency = self.max_concurrency

        provider_overrides = self.provider_overrides.to_dict()

        accept_gap_reason: None | str
        accept_gap_reason = self.accept_gap_reason

        failure_reason: None | str
        failure_reason = self.failure_reason

        created_at = self.created_at

        started_at: None | str
        started_at = self.started_at

        finished_at: None | str
        finished_at = self.finished_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workflowId": workflow_id,
                "workflowVersion": workflow_version,
                "status": status,
                "executionMode": execution_mode,
                "targetCount": target_count,
                "counts": counts,
                "estimatedCostUsd": estimated_cost_usd,
                "actualCostUsd": actual_cost_usd,
                "budgetLimitUsd": budget_limit_usd,
                "budgetEnforcementMode": budget_enforcement_mode,
                "currency": currency,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "planArtifactId": plan_artifact_id,
                "priority": priority,
                "maxConcurrency": max_concurrency,
                "providerOverrides": provider_overrides,
                "acceptGapReason": accept_gap_reason,
                "failureReason": failure_reason,
                "createdAt": created_at,
                "startedAt": started_at,
                "finishedAt": finished_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.order_counts import OrderCounts
        from ..models.order_provider_overrides import OrderProviderOverrides

        d = dict(src_dict)
        id = d.pop("id")

        workflow_id = d.pop("workflowId")

        workflow_version = d.pop("workflowVersion")

        status = OrderStatus(d.pop("status"))

        execution_mode = OrderExecutionMode(d.pop("executionMode"))

        target_count = d.pop("targetCount")

        counts = OrderCounts.from_dict(d.pop("counts"))

        estimated_cost_usd = d.pop("estimatedCostUsd")

        actual_cost_usd = d.pop("actualCostUsd")

        def _parse_budget_limit_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        budget_limit_usd = _parse_budget_limit_usd(d.pop("budgetLimitUsd"))

        budget_enforcement_mode = d.pop("budgetEnforcementMode")

        currency = d.pop("currency")

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

        def _parse_plan_artifact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        plan_artifact_id = _parse_plan_artifact_id(d.pop("planArtifactId"))

        priority = OrderPriority(d.pop("priority"))

        def _parse_max_concurrency(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_concurrency = _parse_max_concurrency(d.pop("maxConcurrency"))

        provider_overrides = OrderProviderOverrides.from_dict(
            d.pop("providerOverrides")
        )

        def _parse_accept_gap_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        accept_gap_reason = _parse_accept_gap_reason(d.pop("acceptGapReason"))

        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failureReason"))

        created_at = d.pop("createdAt")

        def _parse_started_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        def _parse_finished_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        order = cls(
            id=id,
            workflow_id=workflow_id,
            workflow_version=workflow_version,
            status=status,
            execution_mode=execution_mode,
            target_count=target_count,
            counts=counts,
            estimated_cost_usd=estimated_cost_usd,
            actual_cost_usd=actual_cost_usd,
            budget_limit_usd=budget_limit_usd,
            budget_enforcement_mode=budget_enforcement_mode,
            currency=currency,
            workspace_id=workspace_id,
            project_id=project_id,
            plan_artifact_id=plan_artifact_id,
            priority=priority,
            max_concurrency=max_concurrency,
            provider_overrides=provider_overrides,
            accept_gap_reason=accept_gap_reason,
            failure_reason=failure_reason,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
        )

        order.additional_properties = d
        return order

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
