from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_create_request_events_item import (
    WebhookEndpointCreateRequestEventsItem,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointCreateRequest")


@_attrs_define
class WebhookEndpointCreateRequest:
    """
    Example:
        {'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'url': 'https://hooks.acmehoney.example/atelier',
            'events': ['run.completed', 'run.failed', 'order.completed'], 'description': 'Production notifier', 'enabled':
            True}

    Attributes:
        url (str): Where events are POSTed, in its canonical form (a redirect is never followed)
        events (list[WebhookEndpointCreateRequestEventsItem]): The event types to deliver (duplicates are ignored); `*`
            for every event type, including ones added later
        workspace_id (UUID | Unset): The workspace whose events are sent; by default the key's, else the caller's
        description (str | Unset):
        enabled (bool | Unset):  Default: True.
    """

    url: str
    events: list[WebhookEndpointCreateRequestEventsItem]
    workspace_id: UUID | Unset = UNSET
    description: str | Unset = UNSET
    enabled: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        workspace_id: str | Unset = UNSET
        if not isinstance(self.workspace_id, Unset):
            workspace_id = str(self.workspace_id)

        description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "events": events,
            }
        )
        if workspace_id is not UNSET:
            field_dict["workspaceId"] = workspace_id
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = WebhookEndpointCreateRequestEventsItem(events_item_data)

            events.append(events_item)

        _workspace_id = d.pop("workspaceId", UNSET)
        workspace_id: UUID | Unset
        if isinstance(_workspace_id, Unset):
            workspace_id = UNSET
        else:
            workspace_id = UUID(_workspace_id)

        description = d.pop("description", UNSET)

        enabled = d.pop("enabled", UNSET)

        webhook_endpoint_create_request = cls(
            url=url,
            events=events,
            workspace_id=workspace_id,
            description=description,
            enabled=enabled,
        )

        webhook_endpoint_create_request.additional_properties = d
        return webhook_endpoint_create_request

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
