from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_update_request_events_item import (
    WebhookEndpointUpdateRequestEventsItem,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointUpdateRequest")


@_attrs_define
class WebhookEndpointUpdateRequest:
    """
    Example:
        {'events': ['*'], 'enabled': False}

    Attributes:
        url (str | Unset): Where events are POSTed, in its canonical form (a redirect is never followed)
        events (list[WebhookEndpointUpdateRequestEventsItem] | Unset): The event types to deliver (duplicates are
            ignored); `*` for every event type, including ones added later
        description (None | str | Unset): null clears it
        enabled (bool | Unset):
    """

    url: str | Unset = UNSET
    events: list[WebhookEndpointUpdateRequestEventsItem] | Unset = UNSET
    description: None | str | Unset = UNSET
    enabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[WebhookEndpointUpdateRequestEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = WebhookEndpointUpdateRequestEventsItem(events_item_data)

                events.append(events_item)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled = d.pop("enabled", UNSET)

        webhook_endpoint_update_request = cls(
            url=url,
            events=events,
            description=description,
            enabled=enabled,
        )

        webhook_endpoint_update_request.additional_properties = d
        return webhook_endpoint_update_request

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
