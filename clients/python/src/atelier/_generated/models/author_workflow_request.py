from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.author_workflow_request_definition import (
        AuthorWorkflowRequestDefinition,
    )


T = TypeVar("T", bound="AuthorWorkflowRequest")


@_attrs_define
class AuthorWorkflowRequest:
    """
    Example:
        {'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'definition': {'id': 'plan-bee-guide', 'name': 'Plan a
            beekeeping guide', 'artifactClass': 'research', 'version': '2026.11.26', 'intakeSchema': {'fields': [{'name':
            'topic', 'type': 'string', 'required': True}]}, 'runtimeSteps': [{'id': 'step-1', 'name': 'Research', 'kind':
            'llm', 'role': 'researcher', 'capability': 'text'}], 'gates': [], 'providers': {'researcher': 'anthropic/claude-
            haiku-4-5'}}}

    Attributes:
        definition (AuthorWorkflowRequestDefinition): A WorkflowDefinition. Its lists are counted first (at most 100
            runtimeSteps, 50 gates, 100 intake fields; 422 request validation beyond); then it is checked against the
            workflow schema and every publishing rule, and all problems come back at once as 422 workflow_invalid
        workspace_id (UUID | Unset): The owning workspace; defaults to the caller's default workspace
    """

    definition: AuthorWorkflowRequestDefinition
    workspace_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        definition = self.definition.to_dict()

        workspace_id: str | Unset = UNSET
        if not isinstance(self.workspace_id, Unset):
            workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "definition": definition,
            }
        )
        if workspace_id is not UNSET:
            field_dict["workspaceId"] = workspace_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.author_workflow_request_definition import (
            AuthorWorkflowRequestDefinition,
        )

        d = dict(src_dict)
        definition = AuthorWorkflowRequestDefinition.from_dict(d.pop("definition"))

        _workspace_id = d.pop("workspaceId", UNSET)
        workspace_id: UUID | Unset
        if isinstance(_workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = UUID(_workspace_id)

        author_workflow_request = cls(
            definition=definition,
            workspace_id=workspace_id,
        )

        author_workflow_request.additional_properties = d
        return author_workflow_request

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
