from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.catalog_workflow_summary_status import CatalogWorkflowSummaryStatus

if TYPE_CHECKING:
    from ..models.artifact_type_ref import ArtifactTypeRef
    from ..models.catalog_workflow_budget_policy import CatalogWorkflowBudgetPolicy
    from ..models.catalog_workflow_gates_item import CatalogWorkflowGatesItem
    from ..models.catalog_workflow_intake_schema import CatalogWorkflowIntakeSchema
    from ..models.catalog_workflow_runtime_steps_item import (
        CatalogWorkflowRuntimeStepsItem,
    )
    from ..models.catalog_workflow_summary_provided_item import (
        CatalogWorkflowSummaryProvidedItem,
    )
    from ..models.catalog_workflow_summary_returned import (
        CatalogWorkflowSummaryReturned,
    )


T = TypeVar("T", bound="CatalogWorkflow")


@_attrs_define
class CatalogWorkflow:
    """
    Attributes:
        id (str):
        name (str):
        purpose (str):
        artifact_class (str):
        output_type (None | str):
        version (str):
        status (CatalogWorkflowSummaryStatus):
        superseded_by_id (None | str):
        rough_duration_seconds (int | None):
        qa_included (bool):
        provided (list[CatalogWorkflowSummaryProvidedItem]):
        returned (CatalogWorkflowSummaryReturned):
        intake_schema (CatalogWorkflowIntakeSchema):
        runtime_steps (list[CatalogWorkflowRuntimeStepsItem]): Steps with prompts, schemas and bindings redacted
        gates (list[CatalogWorkflowGatesItem]):
        output_shape (list[ArtifactTypeRef]):
        budget_policy (CatalogWorkflowBudgetPolicy):
    """

    id: str
    name: str
    purpose: str
    artifact_class: str
    output_type: None | str
    version: str
    status: CatalogWorkflowSummaryStatus
    superseded_by_id: None | str
    rough_duration_seconds: int | None
    qa_included: bool
    provided: list[CatalogWorkflowSummaryProvidedItem]
    returned: CatalogWorkflowSummaryReturned
    intake_schema: CatalogWorkflowIntakeSchema
    runtime_steps: list[CatalogWorkflowRuntimeStepsItem]
    gates: list[CatalogWorkflowGatesItem]
    output_shape: list[ArtifactTypeRef]
    budget_policy: CatalogWorkflowBudgetPolicy
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        purpose = self.purpose

        artifact_class = self.artifact_class

        output_type: None | str
        output_type = self.output_type

        version = self.version

        status = self.status.value

        superseded_by_id: None | str
        superseded_by_id = self.superseded_by_id

        rough_duration_seconds: int | None
        rough_duration_seconds = self.rough_duration_seconds

        qa_included = self.qa_included

        provided = []
        for provided_item_data in self.provided:
            provided_item = provided_item_data.to_dict()
            provided.append(provided_item)

        returned = self.returned.to_dict()

        intake_schema = self.intake_schema.to_dict()

        runtime_steps = []
        for runtime_steps_item_data in self.runtime_steps:
            runtime_steps_item = runtime_steps_item_data.to_dict()
            runtime_steps.append(runtime_steps_item)

        gates = []
        for gates_item_data in self.gates:
            gates_item = gates_item_data.to_dict()
            gates.append(gates_item)

        output_shape = []
        for output_shape_item_data in self.output_shape:
            output_shape_item = output_shape_item_data.to_dict()
            output_shape.append(output_shape_item)

        budget_policy = self.budget_policy.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "purpose": purpose,
                "artifactClass": artifact_class,
                "outputType": output_type,
                "version": version,
                "status": status,
                "supersededById": superseded_by_id,
                "roughDurationSeconds": rough_duration_seconds,
                "qaIncluded": qa_included,
                "provided": provided,
                "returned": returned,
                "intakeSchema": intake_schema,
                "runtimeSteps": runtime_steps,
                "gates": gates,
                "outputShape": output_shape,
                "budgetPolicy": budget_policy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.artifact_type_ref import ArtifactTypeRef
        from ..models.catalog_workflow_budget_policy import CatalogWorkflowBudgetPolicy
        from ..models.catalog_workflow_gates_item import CatalogWorkflowGatesItem
        from ..models.catalog_workflow_intake_schema import CatalogWorkflowIntakeSchema
        from ..models.catalog_workflow_runtime_steps_item import (
            CatalogWorkflowRuntimeStepsItem,
        )
        from ..models.catalog_workflow_summary_provided_item import (
            CatalogWorkflowSummaryProvidedItem,
        )
        from ..models.catalog_workflow_summary_returned import (
            CatalogWorkflowSummaryReturned,
        )

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        purpose = d.pop("purpose")

        artifact_class = d.pop("artifactClass")

        def _parse_output_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        output_type = _parse_output_type(d.pop("outputType"))

        version = d.pop("version")

        status = CatalogWorkflowSummaryStatus(d.pop("status"))

        def _parse_superseded_by_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        superseded_by_id = _parse_superseded_by_id(d.pop("supersededById"))

        def _parse_rough_duration_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rough_duration_seconds = _parse_rough_duration_seconds(
            d.pop("roughDurationSeconds")
        )

        qa_included = d.pop("qaIncluded")

        provided = []
        _provided = d.pop("provided")
        for provided_item_data in _provided:
            provided_item = CatalogWorkflowSummaryProvidedItem.from_dict(
                provided_item_data
            )

            provided.append(provided_item)

        returned = CatalogWorkflowSummaryReturned.from_dict(d.pop("returned"))

        intake_schema = CatalogWorkflowIntakeSchema.from_dict(d.pop("intakeSchema"))

        runtime_steps = []
        _runtime_steps = d.pop("runtimeSteps")
        for runtime_steps_item_data in _runtime_steps:
            runtime_steps_item = CatalogWorkflowRuntimeStepsItem.from_dict(
                runtime_steps_item_data
            )

            runtime_steps.append(runtime_steps_item)

        gates = []
        _gates = d.pop("gates")
        for gates_item_data in _gates:
            gates_item = CatalogWorkflowGatesItem.from_dict(gates_item_data)

            gates.append(gates_item)

        output_shape = []
        _output_shape = d.pop("outputShape")
        for output_shape_item_data in _output_shape:
            output_shape_item = ArtifactTypeRef.from_dict(output_shape_item_data)

            output_shape.append(output_shape_item)

        budget_policy = CatalogWorkflowBudgetPolicy.from_dict(d.pop("budgetPolicy"))

        catalog_workflow = cls(
            id=id,
            name=name,
            purpose=purpose,
            artifact_class=artifact_class,
            output_type=output_type,
            version=version,
            status=status,
            superseded_by_id=superseded_by_id,
            rough_duration_seconds=rough_duration_seconds,
            qa_included=qa_included,
            provided=provided,
            returned=returned,
            intake_schema=intake_schema,
            runtime_steps=runtime_steps,
            gates=gates,
            output_shape=output_shape,
            budget_policy=budget_policy,
        )

        catalog_workflow.additional_properties = d
        return catalog_workflow

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
