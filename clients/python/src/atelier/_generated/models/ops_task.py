from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ops_task_kind import OpsTaskKind
from ..models.ops_task_request_state_type_1 import OpsTaskRequestStateType1
from ..models.ops_task_request_state_type_2_type_1 import OpsTaskRequestStateType2Type1
from ..models.ops_task_request_state_type_3_type_1 import OpsTaskRequestStateType3Type1
from ..models.ops_task_status import OpsTaskStatus

T = TypeVar("T", bound="OpsTask")


@_attrs_define
class OpsTask:
    """
    Attributes:
        id (UUID):
        kind (OpsTaskKind):
        status (OpsTaskStatus):
        campaign_id (str):
        campaign_name (str):
        workspace_id (UUID):
        project_id (UUID):
        request_state (None | OpsTaskRequestStateType1 | OpsTaskRequestStateType2Type1 | OpsTaskRequestStateType3Type1):
        created_at (str):
    """

    id: UUID
    kind: OpsTaskKind
    status: OpsTaskStatus
    campaign_id: str
    campaign_name: str
    workspace_id: UUID
    project_id: UUID
    request_state: (
        None
        | OpsTaskRequestStateType1
        | OpsTaskRequestStateType2Type1
        | OpsTaskRequestStateType3Type1
    )
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        kind = self.kind.value

        status = self.status.value

        campaign_id = self.campaign_id

        campaign_name = self.campaign_name

        workspace_id = str(self.workspace_id)

        project_id = str(self.project_id)

        request_state: None | str
        if (
            isinstance(self.request_state, OpsTaskRequestStateType1)
            or isinstance(self.request_state, OpsTaskRequestStateType2Type1)
            or isinstance(self.request_state, OpsTaskRequestStateType3Type1)
        ):
            request_state = self.request_state.value
        else:
            request_state = self.request_state

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "status": status,
                "campaignId": campaign_id,
                "campaignName": campaign_name,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "requestState": request_state,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        kind = OpsTaskKind(d.pop("kind"))

        status = OpsTaskStatus(d.pop("status"))

        campaign_id = d.pop("campaignId")

        campaign_name = d.pop("campaignName")

        workspace_id = UUID(d.pop("workspaceId"))

        project_id = UUID(d.pop("projectId"))

        def _parse_request_state(
            data: object,
        ) -> (
            None
            | OpsTaskRequestStateType1
            | OpsTaskRequestStateType2Type1
            | OpsTaskRequestStateType3Type1
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_state_type_1 = OpsTaskRequestStateType1(data)

                return request_state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_state_type_2_type_1 = OpsTaskRequestStateType2Type1(data)

                return request_state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_state_type_3_type_1 = OpsTaskRequestStateType3Type1(data)

                return request_state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | OpsTaskRequestStateType1
                | OpsTaskRequestStateType2Type1
                | OpsTaskRequestStateType3Type1,
                data,
            )

        request_state = _parse_request_state(d.pop("requestState"))

        created_at = d.pop("createdAt")

        ops_task = cls(
            id=id,
            kind=kind,
            status=status,
            campaign_id=campaign_id,
            campaign_name=campaign_name,
            workspace_id=workspace_id,
            project_id=project_id,
            request_state=request_state,
            created_at=created_at,
        )

        ops_task.additional_properties = d
        return ops_task

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
