from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.run_created_via import RunCreatedVia
from ..models.run_status import RunStatus

if TYPE_CHECKING:
    from ..models.run_decision import RunDecision
    from ..models.run_failure_details_type_0 import RunFailureDetailsType0
    from ..models.run_intake import RunIntake
    from ..models.run_metadata import RunMetadata
    from ..models.run_review_gate_type_0 import RunReviewGateType0
    from ..models.run_step import RunStep
    from ..models.total_costs import TotalCosts


T = TypeVar("T", bound="Run")


@_attrs_define
class Run:
    """
    Example:
        {'id': 'run-3f9a1c2e', 'templateId': 'plan-research-report', 'templateName': 'Plan a research report', 'status':
            'completed', 'currentStepIndex': 2, 'intake': {'topic': 'urban beekeeping', 'depth': 'standard'}, 'artifactId':
            'artifact-8d2f4b6a', 'durationMs': 48210, 'workflowVersion': '2026.11.01', 'specVersionHash':
            'sha256:5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8', 'createdVia': 'api_key', 'apiKeyId':
            '0c7e5a1f-2b4d-4e8a-9f3c-6d1b8a2e4f70', 'apiKeyName': 'CI pipeline', 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'queuedAt':
            '2026-11-26T10:15:02.114Z', 'createdAt': '2026-11-26T10:15:02.114Z', 'finishedAt': '2026-11-26T10:15:50.324Z',
            'totalCosts': {'estimatedUsd': 0.042, 'actualUsd': 0.037, 'ownActualUsd': 0.037, 'currency': 'USD', 'status':
            'provider_reported'}, 'runSteps': [{'id': 'step-1', 'name': 'Research', 'kind': 'llm', 'status': 'completed',
            'provider': 'anthropic', 'model': 'anthropic/claude-haiku-4-5', 'durationMs': 21400, 'costActualUsd': 0.021},
            {'id': 'step-2', 'name': 'Write report', 'kind': 'llm', 'status': 'completed', 'provider': 'anthropic', 'model':
            'anthropic/claude-haiku-4-5', 'durationMs': 26300, 'costActualUsd': 0.016}, {'id': 'step-3', 'name':
            'artifact.create', 'kind': 'code', 'status': 'completed', 'provider': None, 'model': None, 'durationMs': 510,
            'costActualUsd': 0}], 'error': None, 'errorCode': None, 'failureDetails': None, 'parentRunId': None,
            'parentOrderId': None, 'rerunOf': None, 'orderDedupeKey': None, 'workerId': None, 'archived': False,
            'notExecutedReason': None, 'reviewGate': None, 'decisions': [], 'tags': ['q3-content', 'blog'], 'metadata':
            {'customer': 'acme'}}

    Attributes:
        id (str):
        template_id (str):
        template_name (str):
        status (RunStatus):
        current_step_index (int):
        intake (RunIntake):
        artifact_id (None | str):
        duration_ms (int | None):
        workflow_version (str):
        spec_version_hash (str):
        created_via (RunCreatedVia):
        api_key_id (None | str):
        api_key_name (None | str):
        workspace_id (UUID):
        project_id (None | UUID):
        queued_at (str):
        created_at (str):
        finished_at (None | str):
        total_costs (TotalCosts):
        run_steps (list[RunStep]):
        error (None | str):
        error_code (None | str):
        failure_details (None | RunFailureDetailsType0):
        parent_run_id (None | str):
        parent_order_id (None | str):
        rerun_of (None | str): The run this one was created again from (POST /v1/runs/{run_id}/rerun); null otherwise
        order_dedupe_key (None | str):
        worker_id (None | str):
        archived (bool):
        not_executed_reason (None | str):
        review_gate (None | RunReviewGateType0): The approval gate a run in review waits on
        decisions (list[RunDecision]): The review ledger: who decided what, when, with which note
        tags (list[str]): As given at creation, duplicates dropped; [] when none
        metadata (RunMetadata): As given at creation; {} when none
    """

    id: str
    template_id: str
    template_name: str
    status: RunStatus
    current_step_index: int
    intake: RunIntake
    artifact_id: None | str
    duration_ms: int | None
    workflow_version: str
    spec_version_hash: str
    created_via: RunCreatedVia
    api_key_id: None | str
    api_key_name: None | str
    workspace_id: UUID
    project_id: None | UUID
    queued_at: str
    created_at: str
    finished_at: None | str
    total_costs: TotalCosts
    run_steps: list[RunStep]
    error: None | str
    error_code: None | str
    failure_details: None | RunFailureDetailsType0
    parent_run_id: None | str
    parent_order_id: None | str
    rerun_of: None | str
    order_dedupe_key: None | str
    worker_id: None | str
    archived: bool
    not_executed_reason: None | str
    review_gate: None | RunReviewGateType0
    decisions: list[RunDecision]
    tags: list[str]
    metadata: RunMetadata
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.run_failure_details_type_0 import RunFailureDetailsType0
        from ..models.run_review_gate_type_0 import RunReviewGateType0

        id = self.id

        template_id = self.template_id

        template_name = self.template_name

        status = self.status.value

        current_step_index = self.current_step_index

        intake = self.intake.to_dict()

        artifact_id: None | str
        artifact_id = self.artifact_id

        duration_ms: int | None
        duration_ms = self.duration_ms

        workflow_version = self.workflow_version

        spec_version_hash = self.spec_version_hash

        created_via = self.created_via.value

        api_key_id: None | str
        api_key_id = self.api_key_id

        api_key_name: None | str
        api_key_name = self.api_key_name

        workspace_id = str(self.workspace_id)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        queued_at = self.queued_at

        created_at = self.created_at

        finished_at: None | str
        finished_at = self.finished_at

        total_costs = self.total_costs.to_dict()

        run_steps = []
        for run_steps_item_data in self.run_steps:
            run_steps_item = run_steps_item_data.to_dict()
            run_steps.append(run_steps_item)

        error: None | str
        error = self.error

        error_code: None | str
        error_code = self.error_code

        failure_details: dict[str, Any] | None
        if isinstance(self.failure_details, RunFailureDetailsType0):
            failure_details = self.failure_details.to_dict()
        else:
            failure_details = self.failure_details

        parent_run_id: None | str
        parent_run_id = self.parent_run_id

        parent_order_id: None | str
        parent_order_id = self.parent_order_id

        rerun_of: None | str
        rerun_of = self.rerun_of

        order_dedupe_key: None | str
        order_dedupe_key = self.order_dedupe_key

        worker_id: None | str
        worker_id = self.worker_id

        archived = self.archived

        not_executed_reason: None | str
        not_executed_reason = self.not_executed_reason

        review_gate: dict[str, Any] | None
        if isinstance(self.review_gate, RunReviewGateType0):
            review_gate = self.review_gate.to_dict()
        else:
            review_gate = self.review_gate

        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)

        tags = self.tags

        metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "templateId": template_id,
                "templateName": template_name,
                "status": status,
                "currentStepIndex": current_step_index,
                "intake": intake,
                "artifactId": artifact_id,
                "durationMs": duration_ms,
                "workflowVersion": workflow_version,
                "specVersionHash": spec_version_hash,
                "createdVia": created_via,
                "apiKeyId": api_key_id,
                "apiKeyName": api_key_name,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "queuedAt": queued_at,
                "createdAt": created_at,
                "finishedAt": finished_at,
                "totalCosts": total_costs,
                "runSteps": run_steps,
                "error": error,
                "errorCode": error_code,
                "failureDetails": failure_details,
                "parentRunId": parent_run_id,
                "parentOrderId": parent_order_id,
                "rerunOf": rerun_of,
                "orderDedupeKey": order_dedupe_key,
                "workerId": worker_id,
                "archived": archived,
                "notExecutedReason": not_executed_reason,
                "reviewGate": review_gate,
                "decisions": decisions,
                "tags": tags,
                "metadata": metadata,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_decision import RunDecision
        from ..models.run_failure_details_type_0 import RunFailureDetailsType0
        from ..models.run_intake import RunIntake
        from ..models.run_metadata import RunMetadata
        from ..models.run_review_gate_type_0 import RunReviewGateType0
        from ..models.run_step import RunStep
        from ..models.total_costs import TotalCosts

        d = dict(src_dict)
        id = d.pop("id")

        template_id = d.pop("templateId")

        template_name = d.pop("templateName")

        status = RunStatus(d.pop("status"))

        current_step_index = d.pop("currentStepIndex")

        intake = RunIntake.from_dict(d.pop("intake"))

        def _parse_artifact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        artifact_id = _parse_artifact_id(d.pop("artifactId"))

        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("durationMs"))

        workflow_version = d.pop("workflowVersion")

        spec_version_hash = d.pop("specVersionHash")

        created_via = RunCreatedVia(d.pop("createdVia"))

        def _parse_api_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        api_key_id = _parse_api_key_id(d.pop("apiKeyId"))

        def _parse_api_key_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        api_key_name = _parse_api_key_name(d.pop("apiKeyName"))

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

        queued_at = d.pop("queuedAt")

        created_at = d.pop("createdAt")

        def _parse_finished_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        total_costs = TotalCosts.from_dict(d.pop("totalCosts"))

        run_steps = []
        _run_steps = d.pop("runSteps")
        for run_steps_item_data in _run_steps:
            run_steps_item = RunStep.from_dict(run_steps_item_data)

            run_steps.append(run_steps_item)

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("errorCode"))

        def _parse_failure_details(data: object) -> None | RunFailureDetailsType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_details_type_0 = RunFailureDetailsType0.from_dict(data)

                return failure_details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunFailureDetailsType0, data)

        failure_details = _parse_failure_details(d.pop("failureDetails"))

        def _parse_parent_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        parent_run_id = _parse_parent_run_id(d.pop("parentRunId"))

        def _parse_parent_order_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        parent_order_id = _parse_parent_order_id(d.pop("parentOrderId"))

        def _parse_rerun_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rerun_of = _parse_rerun_of(d.pop("rerunOf"))

        def _parse_order_dedupe_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        order_dedupe_key = _parse_order_dedupe_key(d.pop("orderDedupeKey"))

        def _parse_worker_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        worker_id = _parse_worker_id(d.pop("workerId"))

        archived = d.pop("archived")

        def _parse_not_executed_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        not_executed_reason = _parse_not_executed_reason(d.pop("notExecutedReason"))

        def _parse_review_gate(data: object) -> None | RunReviewGateType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                review_gate_type_0 = RunReviewGateType0.from_dict(data)

                return review_gate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunReviewGateType0, data)

        review_gate = _parse_review_gate(d.pop("reviewGate"))

        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = RunDecision.from_dict(decisions_item_data)

            decisions.append(decisions_item)

        tags = cast(list[str], d.pop("tags"))

        metadata = RunMetadata.from_dict(d.pop("metadata"))

        run = cls(
            id=id,
            template_id=template_id,
            template_name=template_name,
            status=status,
            current_step_index=current_step_index,
            intake=intake,
            artifact_id=artifact_id,
            duration_ms=duration_ms,
            workflow_version=workflow_version,
            spec_version_hash=spec_version_hash,
            created_via=created_via,
            api_key_id=api_key_id,
            api_key_name=api_key_name,
            workspace_id=workspace_id,
            project_id=project_id,
            queued_at=queued_at,
            created_at=created_at,
            finished_at=finished_at,
            total_costs=total_costs,
            run_steps=run_steps,
            error=error,
            error_code=error_code,
            failure_details=failure_details,
            parent_run_id=parent_run_id,
            parent_order_id=parent_order_id,
            rerun_of=rerun_of,
            order_dedupe_key=order_dedupe_key,
            worker_id=worker_id,
            archived=archived,
            not_executed_reason=not_executed_reason,
            review_gate=review_gate,
            decisions=decisions,
            tags=tags,
            metadata=metadata,
        )

        run.additional_properties = d
        return run

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
