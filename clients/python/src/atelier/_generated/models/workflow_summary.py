from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workflow_summary_status import WorkflowSummaryStatus
from ..models.workflow_summary_visibility import WorkflowSummaryVisibility

T = TypeVar("T", bound="WorkflowSummary")


@_attrs_define
class WorkflowSummary:
    """
    Attributes:
        id (str):
        name (str):
        workspace_id (None | UUID): null for the platform built-ins
        builtin (bool):
        status (WorkflowSummaryStatus):
        superseded_by_id (None | str):
        visibility (WorkflowSummaryVisibility):
        live_version (None | str): The newest published version: what new runs pin; null while only a draft exists
        created_at (str):
        updated_at (str):
    """

    id: str
    name: str
    workspace_id: None | UUID
    builtin: bool
    status: WorkflowSummaryStatus
    superseded_by_id: None | str
    visibility: WorkflowSummaryVisibility
    live_version: None | str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        workspace_id: None | str
        if isinstance(self.workspace_id, UUID):
            workspace_id = str(self.workspace_id)
        else:
            workspace_id = self.workspace_id

        builtin = self.builtin

        status = self.status.value

        superseded_by_id: None | str
        superseded_by_id = self.superseded_by_id

        visibility = self.visibility.value

        live_version: None | str
        live_version = self.live_version

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "workspaceId": workspace_id,
                "builtin": builtin,
                "status": status,
                "supersededById": superseded_by_id,
                "visibility": visibility,
                "liveVersion": live_version,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_workspace_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                workspace_id_type_0 = UUID(data)

                return workspace_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        workspace_id = _parse_workspace_id(d.pop("workspaceId"))

        builtin = d.pop("builtin")

        status = WorkflowSummaryStatus(d.pop("status"))

        def _parse_superseded_by_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        superseded_by_id = _parse_superseded_by_id(d.pop("supersededById"))

        visibility = WorkflowSummaryVisibility(d.pop("visibility"))

        def _parse_live_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        live_version = _parse_live_version(d.pop("liveVersion"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        workflow_summary = cls(
            id=id,
            name=name,
            workspace_id=workspace_id,
            builtin=builtin,
            status=status,
            superseded_by_id=superseded_by_id,
            visibility=visibility,
            live_version=live_version,
            created_at=created_at,
            updated_at=updated_at,
        )

        workflow_summary.additional_properties = d
        return workflow_summary

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
