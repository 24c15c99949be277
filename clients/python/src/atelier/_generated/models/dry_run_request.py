from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dry_run_request_intake_schema import DryRunRequestIntakeSchema


T = TypeVar("T", bound="DryRunRequest")


@_attrs_define
class DryRunRequest:
    """A draft WorkflowDefinition, whole or partial (intakeSchema, runtimeSteps, providers, gates, ...), plus intake

    Example:
        {'intakeSchema': {'fields': [{'name': 'topic', 'type': 'string', 'required': True, 'description': 'What the
            report is about'}]}, 'runtimeSteps': [{'id': 'step-1', 'name': 'Outline', 'kind': 'llm', 'role': 'researcher',
            'capability': 'text'}], 'intake': {'topic': 'urban beekeeping'}, 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34'}

    Attributes:
        runtime_steps (list[Any] | Unset):
        gates (list[Any] | Unset):
        intake_schema (DryRunRequestIntakeSchema | Unset):
        intake (Any | Unset): An intake to resolve against the draft's intakeSchema
        workspace_id (UUID | Unset):
        template_id (str | Unset): Ignored: a dry run checks the definition in the body, never a stored workflow
    """

    runtime_steps: list[Any] | Unset = UNSET
    gates: list[Any] | Unset = UNSET
    intake_schema: DryRunRequestIntakeSchema | Unset = UNSET
    intake: Any | Unset = UNSET
    workspace_id: UUID | Unset = UNSET
    template_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        runtime_steps: list[Any] | Unset = UNSET
        if not isinstance(self.runtime_steps, Unset):
            runtime_steps = self.runtime_steps

        gates: list[Any] | Unset = UNSET
        if not isinstance(self.gates, Unset):
            gates = self.gates

        intake_schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.intake_schema, Unset):
            intake_schema = self.intake_schema.to_dict()

        intake = self.intake

        workspace_id: str | Unset = UNSET
        if not isinstance(self.workspace_id, Unset):
            workspace_id = str(self.workspace_id)

        template_id = self.template_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if runtime_steps is not UNSET:
            field_dict["runtimeSteps"] = runtime_steps
        if gates is not UNSET:
            field_dict["gates"] = gates
        if intake_schema is not UNSET:
            field_dict["intakeSchema"] = intake_schema
        if intake is not UNSET:
            field_dict["intake"] = intake
        if workspace_id is not UNSET:
            field_dict["workspaceId"] = workspace_id
        if template_id is not UNSET:
            field_dict["templateId"] = template_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.dry_run_request_intake_schema import DryRunRequestIntakeSchema

        d = dict(src_dict)
        runtime_steps = cast(list[Any], d.pop("runtimeSteps", UNSET))

        gates = cast(list[Any], d.pop("gates", UNSET))

        _intake_schema = d.pop("intakeSchema", UNSET)
        intake_schema: DryRunRequestIntakeSchema | Unset
        if isinstance(_intake_schema, Unset):
            intake_schema = UNSET
        else:
            intake_schema = DryRunRequestIntakeSchema.from_dict(_intake_schema)

        intake = d.pop("intake", UNSET)

        _workspace_id = d.pop("workspaceId", UNSET)
        workspace_id: UUID | Unset
        if isinstance(_workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = UUID(_workspace_id)

        template_id = d.pop("templateId", UNSET)

        dry_run_request = cls(
            runtime_steps=runtime_steps,
            gates=gates,
            intake_schema=intake_schema,
            intake=intake,
            workspace_id=workspace_id,
            template_id=template_id,
        )

        dry_run_request.additional_properties = d
        return dry_run_request

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
