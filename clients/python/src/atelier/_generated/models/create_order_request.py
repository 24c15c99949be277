from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_order_request_budget_enforcement_mode import (
    CreateOrderRequestBudgetEnforcementMode,
)
from ..models.create_order_request_execution_mode import CreateOrderRequestExecutionMode
from ..models.create_order_request_priority import CreateOrderRequestPriority
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_order_request_intake_base import CreateOrderRequestIntakeBase
    from ..models.create_order_request_metadata import CreateOrderRequestMetadata
    from ..models.create_order_request_provider_overrides import (
        CreateOrderRequestProviderOverrides,
    )
    from ..models.variation_spec_csv import VariationSpecCsv
    from ..models.variation_spec_list import VariationSpecList
    from ..models.variation_spec_matrix import VariationSpecMatrix


T = TypeVar("T", bound="CreateOrderRequest")


@_attrs_define
class CreateOrderRequest:
    """
    Example:
        {'workflowId': 'plan-research-report', 'variationSpec': {'resolver': 'list', 'params': {'items': [{'topic':
            'urban beekeeping'}, {'topic': 'rooftop gardens'}, {'topic': 'community composting'}]}}, 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'targetCount': 3,
            'budgetLimitUsd': 12.5, 'budgetEnforcementMode': 'hard_stop', 'tags': ['q3-content']}

    Attributes:
        workflow_id (str):
        variation_spec (VariationSpecCsv | VariationSpecList | VariationSpecMatrix):
        intake_base (CreateOrderRequestIntakeBase | Unset): Each string in it (a key or a value, at any depth) at most
            65,536 characters, the whole at most 262,144 bytes as JSON; beyond, 422 intake_invalid
        workflow_version (str | Unset):
        workspace_id (UUID | Unset):
        project_id (None | Unset | UUID):
        target_count (int | Unset):
        execution_mode (CreateOrderRequestExecutionMode | Unset):
        budget_limit_usd (float | Unset):
        budget_enforcement_mode (CreateOrderRequestBudgetEnforcementMode | Unset):
        provider_overrides (CreateOrderRequestProviderOverrides | Unset):
        plan_artifact_id (str | Unset):
        priority (CreateOrderRequestPriority | Unset): How soon the children are served when workers are busy (default
            normal): one level below a single run of the same priority; within one priority each workspace gets its share of
            the workers
        max_concurrency (int | Unset): Children of this order running at once, at most (default: the deployment's
            setting)
        tags (list[str] | Unset): Tags every child run gets (as a run's tags); retried children keep them
        metadata (CreateOrderRequestMetadata | Unset): Metadata every child run gets (as a run's metadata); retried
            children keep it
    """

    workflow_id: str
    variation_spec: VariationSpecCsv | VariationSpecList | VariationSpecMatrix
    intake_base: CreateOrderRequestIntakeBase | Unset = UNSET
    workflow_version: str | Unset = UNSET
    workspace_id: UUID | Unset = UNSET
    project_id: None | Unset | UUID = UNSET
    target_count: int | Unset = UNSET
    execution_mode: CreateOrderRequestExecutionMode | Unset = UNSET
    budget_limit_usd: float | Unset = UNSET
    budget_enforcement_mode: CreateOrderRequestBudgetEnforcementMode | Unset = UNSET
    provider_overrides: CreateOrderRequestProviderOverrides | Unset = UNSET
    plan_artifact_id: str | Unset = UNSET
    priority: CreateOrderRequestPriority | Unset = UNSET
    max_concurrency: int | Unset = UNSET
    tags: list[str] | Unset = UNSET
    metadata: CreateOrderRequestMetadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.variation_spec_list import VariationSpecList
        from ..models.variation_spec_matrix import VariationSpecMatrix

        workflow_id = self.workflow_id

        variation_spec: dict[str, Any]
        if isinstance(self.variation_spec, VariationSpecList) or isinstance(
            self.variation_spec, VariationSpecMatrix
        ):
            variation_spec = self.variation_spec.to_dict()
        else:
            variation_spec = self.variation_spec.to_dict()

        intake_base: dict[str, Any] | Unset = UNSET
        if not isinstance(self.intake_base, Unset):
            intake_base = self.intake_base.to_dict()

        workflow_version = self.workflow_version

        workspace_id: str | Unset = UNSET
        if not isinstance(self.workspace_id, Unset):
            workspace_id = str(self.workspace_id)

        project_id: None | str | Unset
        if isinstance(self.project_id, Unset):
            project_id = UNSET
        elif isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        target_count = self.target_count

        execution_mode: str | Unset = UNSET
        if not isinstance(self.execution_mode, Unset):
            execution_mode = self.execution_mode.value

        budget_limit_usd = self.budget_limit_usd

        budget_enforcement_mode: str | Unset = UNSET
        if not isinstance(self.budget_enforcement_mode, Unset):
            budget_enforcement_mode = self.budget_enforcement_mode.value

        provider_overrides: dict[str, Any] | Unset = UNSET
        if not isinstance(self.provider_overrides, Unset):
            provider_overrides = self.provider_overrides.to_dict()

        plan_artifact_id = self.plan_artifact_id

        priority: str | Unset = UNSET
        if not isinstance(self.priority, Unset):
            priority = self.priority.value

        max_concurrency = self.max_concurrency

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workflowId": workflow_id,
                "variationSpec": variation_spec,
            }
        )
        if intake_base is not UNSET:
            field_dict["intakeBase"] = intake_base
        if workflow_version is not UNSET:
            field_dict["workflowVersion"] = workflow_version
        if workspace_id is not UNSET:
            field_dict["workspaceId"] = workspace_id
        if project_id is not UNSET:
            field_dict["projectId"] = project_id
        if target_count is not UNSET:
            field_dict["targetCount"] = target_count
        if execution_mode is not UNSET:
            field_dict["executionMode"] = execution_mode
        if budget_limit_usd is not UNSET:
            field_dict["budgetLimitUsd"] = budget_limit_usd
        if budget_enforcement_mode is not UNSET:
            field_dict["budgetEnforcementMode"] = budget_enforcement_mode
        if provider_overrides is not UNSET:
            field_dict["providerOverrides"] = provider_overrides
        if plan_artifact_id is not UNSET:
            field_dict["planArtifactId"] = plan_artifact_id
        if priority is not UNSET:
            field_dict["priority"] = priority
        if max_concurrency is not UNSET:
            field_dict["maxConcurrency"] = max_concurrency
        if tags is not UNSET:
            field_dict["tags"] = tags
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_order_request_intake_base import (
            CreateOrderRequestIntakeBase,
        )
        from ..models.create_order_request_metadata import CreateOrderRequestMetadata
        from ..models.create_order_request_provider_overrides import (
            CreateOrderRequestProviderOverrides,
        )
        from ..models.variation_spec_csv import VariationSpecCsv
        from ..models.variation_spec_list import VariationSpecList
        from ..models.variation_spec_matrix import VariationSpecMatrix

        d = dict(src_dict)
        workflow_id = d.pop("workflowId")

        def _parse_variation_spec(
            data: object,
        ) -> VariationSpecCsv | VariationSpecList | VariationSpecMatrix:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_variation_spec_type_0 = VariationSpecList.from_dict(
                    data
                )

                return componentsschemas_variation_spec_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_variation_spec_type_1 = VariationSpecMatrix.from_dict(
                    data
                )

                return componentsschemas_variation_spec_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_variation_spec_type_2 = VariationSpecCsv.from_dict(data)

            return componentsschemas_variation_spec_type_2

        variation_spec = _parse_variation_spec(d.pop("variationSpec"))

        _intake_base = d.pop("intakeBase", UNSET)
        intake_base: CreateOrderRequestIntakeBase | Unset
        if isinstance(_intake_base, Unset):
            intake_base = UNSET
        else:
            intake_base = CreateOrderRequestIntakeBase.from_dict(_intake_base)

        workflow_version = d.pop("workflowVersion", UNSET)

        _workspace_id = d.pop("workspaceId", UNSET)
        workspace_id: UUID | Unset
        if isinstance(_workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = UUID(_workspace_id)

        def _parse_project_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        project_id = _parse_project_id(d.pop("projectId", UNSET))

        target_count = d.pop("targetCount", UNSET)

        _execution_mode = d.pop("executionMode", UNSET)
        execution_mode: CreateOrderRequestExecutionMode | Unset
        if isinstance(_execution_mode, Unset):
            execution_mode = UNSET
        else:
            execution_mode = CreateOrderRequestExecutionMode(_execution_mode)

        budget_limit_usd = d.pop("budgetLimitUsd", UNSET)

        _budget_enforcement_mode = d.pop("budgetEnforcementMode", UNSET)
        budget_enforcement_mode: CreateOrderRequestBudgetEnforcementMode | Unset
        if isinstance(_budget_enforcement_mode, Unset):
            budget_enforcement_mode = UNSET
        else:
            budget_enforcement_mode = CreateOrderRequestBudgetEnforcementMode(
                _budget_enforcement_mode
            )

        _provider_overrides = d.pop("providerOverrides", UNSET)
        provider_overrides: CreateOrderRequestProviderOverrides | Unset
        if isinstance(_provider_overrides, Unset):
            provider_overrides = UNSET
        else:
            provider_overrides = CreateOrderRequestProviderOverrides.from_dict(
                _provider_overrides
            )

        plan_artifact_id = d.pop("planArtifactId", UNSET)

        _priority = d.pop("priority", UNSET)
        priority: CreateOrderRequestPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = CreateOrderRequestPriority(_priority)

        max_concurrency = d.pop("maxConcurrency", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: CreateOrderRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = CreateOrderRequestMetadata.from_dict(_metadata)

        create_order_request = cls(
            workflow_id=workflow_id,
            variation_spec=variation_spec,
            intake_base=intake_base,
            workflow_version=workflow_version,
            workspace_id=workspace_id,
            project_id=project_id,
            target_count=target_count,
            execution_mode=execution_mode,
            budget_limit_usd=budget_limit_usd,
            budget_enforcement_mode=budget_enforcement_mode,
            provider_overrides=provider_overrides,
            plan_artifact_id=plan_artifact_id,
            priority=priority,
            max_concurrency=max_concurrency,
            tags=tags,
            metadata=metadata,
        )

        create_order_request.additional_properties = d
        return create_order_request

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
