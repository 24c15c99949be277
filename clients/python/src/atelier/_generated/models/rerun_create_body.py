from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_run_request_priority import CreateRunRequestPriority
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_run_request_intake import CreateRunRequestIntake
    from ..models.create_run_request_metadata import CreateRunRequestMetadata
    from ..models.create_run_request_providers import CreateRunRequestProviders


T = TypeVar("T", bound="RerunCreateBody")


@_attrs_define
class RerunCreateBody:
    """
    Example:
        {'templateId': 'plan-research-report', 'workflowVersion': '2026.11.01', 'intake': {'topic': 'rooftop beekeeping
            in winter', 'depth': 'standard'}, 'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId':
            '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'providers': {'researcher': 'anthropic/claude-haiku-4-5',
            'textGenerator': 'anthropic/claude-haiku-4-5'}, 'priority': 'normal', 'tags': ['q3-content', 'blog'],
            'metadata': {'customer': 'acme'}, 'rerunOf': 'run-3f9a1c2e'}

    Attributes:
        template_id (str):
        intake (CreateRunRequestIntake): Each string in it (a key or a value, at any depth) at most 65,536 characters,
            the whole at most 262,144 bytes as JSON; beyond, 422 intake_invalid
        workspace_id (UUID):
        project_id (None | UUID):
        providers (CreateRunRequestProviders): Every role's binding: the original run's, with the request's providers
            over them
        workflow_version (str): The original run's pinned version, pinned again even when a newer one is live
        rerun_of (str): The original run
        priority (CreateRunRequestPriority | Unset): How soon the run is served when workers are busy (default normal).
            A run goes ahead of order children of the same priority; within one priority each workspace gets its share of
            the workers
        tags (list[str] | Unset): At most 20 tags, each 1–64 characters of A–Z a–z 0–9 _ . : -; duplicates are dropped,
            order kept
        metadata (CreateRunRequestMetadata | Unset): String to string, at most 50 keys of 1–64 characters, values up to
            512
    """

    template_id: str
    intake: CreateRunRequestIntake
    workspace_id: UUID
    project_id: None | UUID
    providers: CreateRunRequestProviders
    workflow_version: str
    rerun_of: str
    priority: CreateRunRequestPriority | Unset = UNSET
    tags: list[str] | Unset = UNSET
    metadata: CreateRunRequestMetadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        template_id = self.template_id

        intake = self.intake.to_dict()

        workspace_id = str(self.workspace_id)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        providers = self.providers.to_dict()

        workflow_version = self.workflow_version

        rerun_of = self.rerun_of

        priority: str | Unset = UNSET
        if not isinstance(self.priority, Unset):
            priority = self.priority.value

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
                "templateId": template_id,
                "intake": intake,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "providers": providers,
                "workflowVersion": workflow_version,
                "rerunOf": rerun_of,
            }
        )
        if priority is not UNSET:
            field_dict["priority"] = priority
        if tags is not UNSET:
            field_dict["tags"] = tags
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_run_request_intake import CreateRunRequestIntake
        from ..models.create_run_request_metadata import CreateRunRequestMetadata
        from ..models.create_run_request_providers import CreateRunRequestProviders

        d = dict(src_dict)
        template_id = d.pop("templateId")

        intake = CreateRunRequestIntake.from_dict(d.pop("intake"))

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

        providers = CreateRunRequestProviders.from_dict(d.pop("providers"))

        workflow_version = d.pop("workflowVersion")

        rerun_of = d.pop("rerunOf")

        _priority = d.pop("priority", UNSET)
        priority: CreateRunRequestPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = CreateRunRequestPriority(_priority)

        tags = cast(list[str], d.pop("tags", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: CreateRunRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = CreateRunRequestMetadata.from_dict(_metadata)

        rerun_create_body = cls(
            template_id=template_id,
            intake=intake,
            workspace_id=workspace_id,
            project_id=project_id,
            providers=providers,
            workflow_version=workflow_version,
            rerun_of=rerun_of,
            priority=priority,
            tags=tags,
            metadata=metadata,
        )

        rerun_create_body.additional_properties = d
        return rerun_create_body

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
