from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.queue_item_status import QueueItemStatus

if TYPE_CHECKING:
    from ..models.qa_record import QaRecord
    from ..models.queue_item_hold_fields_item import QueueItemHoldFieldsItem


T = TypeVar("T", bound="QueueItem")


@_attrs_define
class QueueItem:
    """
    Attributes:
        run_id (str):
        template_id (str):
        template_name (str):
        workspace_id (UUID):
        project_id (None | UUID):
        gate_id (None | str): The approval gate the run waits on
        gate_name (None | str):
        status (QueueItemStatus):
        artifact_id (None | str):
        artifact_title (None | str):
        artifact_status (None | str):
        intake_summary (None | str): The run's first one or two text or number intake values, in the workflow's field
            order, joined by ' · ' (each cut at 80 characters): what tells two queued runs of one workflow apart. Null when
            the intake has none
        qa (None | QaRecord): The artifact's QA record; approval needs every check at pass
        hold_fields (list[QueueItemHoldFieldsItem]): Fields an approval must supply in its patch, exactly
        queued_at (str):
        created_at (str):
        entered_review_at (str): When the run reached review; the queue is ordered by it, oldest first
    """

    run_id: str
    template_id: str
    template_name: str
    workspace_id: UUID
    project_id: None | UUID
    gate_id: None | str
    gate_name: None | str
    status: QueueItemStatus
    artifact_id: None | str
    artifact_title: None | str
    artifact_status: None | str
    intake_summary: None | str
    qa: None | QaRecord
    hold_fields: list[QueueItemHoldFieldsItem]
    queued_at: str
    created_at: str
    entered_review_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.qa_record import QaRecord

        run_id = self.run_id

        template_id = self.template_id

        template_name = self.template_name

        workspace_id = str(self.workspace_id)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        gate_id: None | str
        gate_id = self.gate_id

        gate_name: None | str
        gate_name = self.gate_name

        status = self.status.value

        artifact_id: None | str
        artifact_id = self.artifact_id

        artifact_title: None | str
        artifact_title = self.artifact_title

        artifact_status: None | str
        artifact_status = self.artifact_status

        intake_summary: None | str
        intake_summary = self.intake_summary

        qa: dict[str, Any] | None
        if isinstance(self.qa, QaRecord):
            qa = self.qa.to_dict()
        else:
            qa = self.qa

        hold_fields = []
        for hold_fields_item_data in self.hold_fields:
            hold_fields_item = hold_fields_item_data.to_dict()
            hold_fields.append(hold_fields_item)

        queued_at = self.queued_at

        created_at = self.created_at

        entered_review_at = self.entered_review_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runId": run_id,
                "templateId": template_id,
                "templateName": template_name,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "gateId": gate_id,
                "gateName": gate_name,
                "status": status,
                "artifactId": artifact_id,
                "artifactTitle": artifact_title,
                "artifactStatus": artifact_status,
                "intakeSummary": intake_summary,
                "qa": qa,
                "holdFields": hold_fields,
                "queuedAt": queued_at,
                "createdAt": created_at,
                "enteredReviewAt": entered_review_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.qa_record import QaRecord
        from ..models.queue_item_hold_fields_item import QueueItemHoldFieldsItem

        d = dict(src_dict)
        run_id = d.pop("runId")

        template_id = d.pop("templateId")

        template_name = d.pop("templateName")

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

        def _parse_gate_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        gate_id = _parse_gate_id(d.pop("gateId"))

        def _parse_gate_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        gate_name = _parse_gate_name(d.pop("gateName"))

        status = QueueItemStatus(d.pop("status"))

        def _parse_artifact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        artifact_id = _parse_artifact_id(d.pop("artifactId"))

        def _parse_artifact_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        artifact_title = _parse_artifact_title(d.pop("artifactTitle"))

        def _parse_artifact_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        artifact_status = _parse_artifact_status(d.pop("artifactStatus"))

        def _parse_intake_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        intake_summary = _parse_intake_summary(d.pop("intakeSummary"))

        def _parse_qa(data: object) -> None | QaRecord:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                qa_type_0 = QaRecord.from_dict(data)

                return qa_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QaRecord, data)

        qa = _parse_qa(d.pop("qa"))

        hold_fields = []
        _hold_fields = d.pop("holdFields")
        for hold_fields_item_data in _hold_fields:
            hold_fields_item = QueueItemHoldFieldsItem.from_dict(hold_fields_item_data)

            hold_fields.append(hold_fields_item)

        queued_at = d.pop("queuedAt")

        created_at = d.pop("createdAt")

        entered_review_at = d.pop("enteredReviewAt")

        queue_item = cls(
            run_id=run_id,
            template_id=template_id,
            template_name=template_name,
            workspace_id=workspace_id,
            project_id=project_id,
            gate_id=gate_id,
            gate_name=gate_name,
            status=status,
            artifact_id=artifact_id,
            artifact_title=artifact_title,
            artifact_status=artifact_status,
            intake_summary=intake_summary,
            qa=qa,
            hold_fields=hold_fields,
            queued_at=queued_at,
            created_at=created_at,
            entered_review_at=entered_review_at,
        )

        queue_item.additional_properties = d
        return queue_item

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
