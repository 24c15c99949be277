from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ops_notification_kind import OpsNotificationKind

T = TypeVar("T", bound="OpsNotification")


@_attrs_define
class OpsNotification:
    """
    Attributes:
        id (UUID):
        kind (OpsNotificationKind):
        campaign_id (str):
        workspace_id (UUID):
        message (str):
        created_at (str):
    """

    id: UUID
    kind: OpsNotificationKind
    campaign_id: str
    workspace_id: UUID
    message: str
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        kind = self.kind.value

        campaign_id = self.campaign_id

        workspace_id = str(self.workspace_id)

        message = self.message

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "campaignId": campaign_id,
                "workspaceId": workspace_id,
                "message": message,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        kind = OpsNotificationKind(d.pop("kind"))

        campaign_id = d.pop("campaignId")

        workspace_id = UUID(d.pop("workspaceId"))

        message = d.pop("message")

        created_at = d.pop("createdAt")

        ops_notification = cls(
            id=id,
            kind=kind,
            campaign_id=campaign_id,
            workspace_id=workspace_id,
            message=message,
            created_at=created_at,
        )

        ops_notification.additional_properties = d
        return ops_notification

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
