from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.campaign_request_state_type_1 import CampaignRequestStateType1
from ..models.campaign_request_state_type_2_type_1 import CampaignRequestStateType2Type1
from ..models.campaign_request_state_type_3_type_1 import CampaignRequestStateType3Type1
from ..models.campaign_status import CampaignStatus

if TYPE_CHECKING:
    from ..models.campaign_brief import CampaignBrief


T = TypeVar("T", bound="Campaign")


@_attrs_define
class Campaign:
    """
    Attributes:
        id (str): campaign- followed by sixteen hex characters
        workspace_id (UUID):
        project_id (UUID):
        name (str):
        brief (CampaignBrief):
        status (CampaignStatus):
        brand_snapshot_id (str): The brand snapshot pinned at creation; later publishes never move it
        request_state (CampaignRequestStateType1 | CampaignRequestStateType2Type1 | CampaignRequestStateType3Type1 |
            None): The managed request; null while draft
        archived (bool):
        etag (str):
        submitted_at (None | str):
        created_at (str):
        updated_at (str):
    """

    id: str
    workspace_id: UUID
    project_id: UUID
    name: str
    brief: CampaignBrief
    status: CampaignStatus
    brand_snapshot_id: str
    request_state: (
        CampaignRequestStateType1
        | CampaignRequestStateType2Type1
        | CampaignRequestStateType3Type1
        | None
    )
    archived: bool
    etag: str
    submitted_at: None | str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        workspace_id = str(self.workspace_id)

        project_id = str(self.project_id)

        name = self.name

        brief = self.brief.to_dict()

        status = self.status.value

        brand_snapshot_id = self.brand_snapshot_id

        request_state: None | str
        if (
            isinstance(self.request_state, CampaignRequestStateType1)
            or isinstance(self.request_state, CampaignRequestStateType2Type1)
            or isinstance(self.request_state, CampaignRequestStateType3Type1)
        ):
            request_state = self.request_state.value
        else:
            request_state = self.request_state

        archived = self.archived

        etag = self.etag

        submitted_at: None | str
        submitted_at = self.submitted_at

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "name": name,
                "brief": brief,
                "status": status,
                "brandSnapshotId": brand_snapshot_id,
                "requestState": request_state,
                "archived": archived,
                "etag": etag,
                "submittedAt": submitted_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_brief import CampaignBrief

        d = dict(src_dict)
        id = d.pop("id")

        workspace_id = UUID(d.pop("workspaceId"))

        project_id = UUID(d.pop("projectId"))

        name = d.pop("name")

        brief = CampaignBrief.from_dict(d.pop("brief"))

        status = CampaignStatus(d.pop("status"))

        brand_snapshot_id = d.pop("brandSnapshotId")

        def _parse_request_state(
            data: object,
        ) -> (
            CampaignRequestStateType1
            | CampaignRequestStateType2Type1
            | CampaignRequestStateType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_state_type_1 = CampaignRequestStateType1(data)

                return request_state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_state_type_2_type_1 = CampaignRequestStateType2Type1(data)

                return request_state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                request_state_type_3_type_1 = CampaignRequestStateType3Type1(data)

                return request_state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CampaignRequestStateType1
                | CampaignRequestStateType2Type1
                | CampaignRequestStateType3Type1
                | None,
                data,
            )

        request_state = _parse_request_state(d.pop("requestState"))

        archived = d.pop("archived")

        etag = d.pop("etag")

        def _parse_submitted_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        submitted_at = _parse_submitted_at(d.pop("submittedAt"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        campaign = cls(
            id=id,
            workspace_id=workspace_id,
            project_id=project_id,
            name=name,
            brief=brief,
            status=status,
            brand_snapshot_id=brand_snapshot_id,
            request_state=request_state,
            archived=archived,
            etag=etag,
            submitted_at=submitted_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        campaign.additional_properties = d
        return campaign

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
