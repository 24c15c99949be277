from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.author_workflow_request_definition_intake_schema import (
        AuthorWorkflowRequestDefinitionIntakeSchema,
    )


T = TypeVar("T", bound="AuthorWorkflowRequestDefinition")


@_attrs_define
class AuthorWorkflowRequestDefinition:
    """A WorkflowDefinition. Its lists are counted first (at most 100 runtimeSteps, 50 gates, 100 intake fields; 422
    request validation beyond); then it is checked against the workflow schema and every publishing rule, and all
    problems come back at once as 422 workflow_invalid

        Attributes:
            runtime_steps (list[Any] | Unset):
            gates (list[Any] | Unset):
            intake_schema (AuthorWorkflowRequestDefinitionIntakeSchema | Unset):
    """

    runtime_steps: list[Any] | Unset = UNSET
    gates: list[Any] | Unset = UNSET
    intake_schema: AuthorWorkflowRequestDefinitionIntakeSchema | Unset = UNSET
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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if runtime_steps is not UNSET:
            field_dict["runtimeSteps"] = runtime_steps
        if gates is not UNSET:
            field_dict["gates"] = gates
        if intake_schema is not UNSET:
            field_dict["intakeSchema"] = intake_schema

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.author_workflow_request_definition_intake_schema import (
            AuthorWorkflowRequestDefinitionIntakeSchema,
        )

        d = dict(src_dict)
        runtime_steps = cast(list[Any], d.pop("runtimeSteps", UNSET))

        gates = cast(list[Any], d.pop("gates", UNSET))

        _intake_schema = d.pop("intakeSchema", UNSET)
        intake_schema: AuthorWorkflowRequestDefinitionIntakeSchema | Unset
        if isinstance(_intake_schema, Unset):
            intake_schema = UNSET
        else:
            intake_schema = AuthorWorkflowRequestDefinitionIntakeSchema.from_dict(
                _intake_schema
            )

        author_workflow_request_definition = cls(
            runtime_steps=runtime_steps,
            gates=gates,
            intake_schema=intake_schema,
        )

        author_workflow_request_definition.additional_properties = d
        return author_workflow_request_definition

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
