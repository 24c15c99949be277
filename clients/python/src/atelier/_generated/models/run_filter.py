from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.run_filter_status import RunFilterStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_filter_metadata import RunFilterMetadata


T = TypeVar("T", bound="RunFilter")


@_attrs_define
class RunFilter:
    """The runs a bulk action chooses, as GET /v1/runs filters them (one workspace: the one named, else the project's or
    order's, else the key's or the caller's default); {} chooses every run of that workspace

        Attributes:
            workspace_id (UUID | Unset):
            project_id (UUID | Unset):
            status (RunFilterStatus | Unset):
            template_id (str | Unset): Only runs of this workflow
            parent_order_id (str | Unset):
            worker_id (str | Unset):
            rerun_of (str | Unset): Only the reruns of this run
            created_after (datetime.datetime | Unset): Runs created at or after this instant
            created_before (datetime.datetime | Unset): Runs created before this instant
            q (str | Unset): Only runs whose id, workflow id, workflow name or one of whose tags contains this text, case
                aside (at most 200 characters; % and _ are matched as themselves) Example: heron.
            include_archived (bool | Unset): true: archived runs match too (the list hides them otherwise)
            tag (list[str] | Unset): Only runs carrying every tag given
            metadata (RunFilterMetadata | Unset): Only runs whose metadata has each key with exactly this value
    """

    workspace_id: UUID | Unset = UNSET
    project_id: UUID | Unset = UNSET
    status: RunFilterStatus | Unset = UNSET
    template_id: str | Unset = UNSET
    parent_order_id: str | Unset = UNSET
    worker_id: str | Unset = UNSET
    rerun_of: str | Unset = UNSET
    created_after: datetime.datetime | Unset = UNSET
    created_before: datetime.datetime | Unset = UNSET
    q: str | Unset = UNSET
    include_archived: bool | Unset = UNSET
    tag: list[str] | Unset = UNSET
    metadata: RunFilterMetadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id: str | Unset = UNSET
        if not isinstance(self.workspace_id, Unset):
            workspace_id = str(self.workspace_id)

        project_id: str | Unset = UNSET
        if not isinstance(self.project_id, Unset):
            project_id = str(self.project_id)

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        template_id = self.template_id

        parent_order_id = self.parent_order_id

        worker_id = self.worker_id

        rerun_of = self.rerun_of

        created_after: str | Unset = UNSET
        if not isinstance(self.created_after, Unset):
            created_after = self.created_after.isoformat()

        created_before: str | Unset = UNSET
        if not isinstance(self.created_before, Unset):
            created_before = self.created_before.isoformat()

        q = self.q

        include_archived = self.include_archived

        tag: list[str] | Unset = UNSET
        if not isinstance(self.tag, Unset):
            tag = self.tag

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if workspace_id is not UNSET:
            field_dict["workspaceId"] = workspace_id
        if project_id is not UNSET:
            field_dict["projectId"] = project_id
        if status is not UNSET:
            field_dict["status"] = status
        if template_id is not UNSET:
            field_dict["templateId"] = template_id
        if parent_order_id is not UNSET:
            field_dict["parentOrderId"] = parent_order_id
        if worker_id is not UNSET:
            field_dict["workerId"] = worker_id
        if rerun_of is not UNSET:
            field_dict["rerunOf"] = rerun_of
        if created_after is not UNSET:
            field_dict["createdAfter"] = created_after
        if created_before is not UNSET:
            field_dict["createdBefore"] = created_before
        if q is not UNSET:
            field_dict["q"] = q
        if include_archived is not UNSET:
            field_dict["includeArchived"] = include_archived
        if tag is not UNSET:
            field_dict["tag"] = tag
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_filter_metadata import RunFilterMetadata

        d = dict(src_dict)
        _workspace_id = d.pop("workspaceId", UNSET)
        workspace_id: UUID | Unset
        if isinstance(_workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = UUID(_workspace_id)

        _project_id = d.pop("projectId", UNSET)
        project_id: UUID | Unset
        if isinstance(_project_id, Unset):
            project_id = UNSET
        else:
            project_id = UUID(_project_id)

        _status = d.pop("status", UNSET)
        status: RunFilterStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = RunFilterStatus(_status)

        template_id = d.pop("templateId", UNSET)

        parent_order_id = d.pop("parentOrderId", UNSET)

        worker_id = d.pop("workerId", UNSET)

        rerun_of = d.pop("rerunOf", UNSET)

        _created_after = d.pop("createdAfter", UNSET)
        created_after: datetime.datetime | Unset
        if isinstance(_created_after, Unset):
            created_after = UNSET
        else:
            created_after = datetime.datetime.fromisoformat(_created_after)

        _created_before = d.pop("createdBefore", UNSET)
        created_before: datetime.datetime | Unset
        if isinstance(_created_before, Unset):
            created_before = UNSET
        else:
            created_before = datetime.datetime.fromisoformat(_created_before)

        q = d.pop("q", UNSET)

        include_archived = d.pop("includeArchived", UNSET)

        tag = cast(list[str], d.pop("tag", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: RunFilterMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = RunFilterMetadata.from_dict(_metadata)

        run_filter = cls(
            workspace_id=workspace_id,
            project_id=project_id,
            status=status,
            template_id=template_id,
            parent_order_id=parent_order_id,
            worker_id=worker_id,
            rerun_of=rerun_of,
            created_after=created_after,
            created_before=created_before,
            q=q,
            include_archived=include_archived,
            tag=tag,
            metadata=metadata,
        )

        run_filter.additional_properties = d
        return run_filter

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
