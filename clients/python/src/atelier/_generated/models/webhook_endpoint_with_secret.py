from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery_health import DeliveryHealth


T = TypeVar("T", bound="WebhookEndpointWithSecret")


@_attrs_define
class WebhookEndpointWithSecret:
    """
    Attributes:
        id (str):
        workspace_id (UUID):
        url (str):
        description (None | str):
        events (list[str]): The subscribed event types, or `*`
        enabled (bool): A disabled endpoint is sent no new events (a test send still goes)
        secret_rotated_at (str):
        delivery_health (DeliveryHealth):
        created_at (str):
        updated_at (str):
        secret (str): whsec_ + base64 of 32 random bytes (Standard Webhooks). Shown only in this response; verify every
            delivery with it
    """

    id: str
    workspace_id: UUID
    url: str
    description: None | str
    events: list[str]
    enabled: bool
    secret_rotated_at: str
    delivery_health: DeliveryHealth
    created_at: str
    updated_at: str
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        workspace_id = str(self.workspace_id)

        url = self.url

        description: None | str
        description = self.description

        events = self.events

        enabled = self.enabled

        secret_rotated_at = self.secret_rotated_at

        delivery_health = self.delivery_health.to_dict()

        created_at = self.created_at

        updated_at = self.updated_at

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "url": url,
                "description": description,
                "events": events,
                "enabled": enabled,
                "secretRotatedAt": secret_rotated_at,
                "deliveryHealth": delivery_health,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_health import DeliveryHealth

        d = dict(src_dict)
        id = d.pop("id")

        workspace_id = UUID(d.pop("workspaceId"))

        url = d.pop("url")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        events = cast(list[str], d.pop("events"))

        enabled = d.pop("enabled")

        secret_rotated_at = d.pop("secretRotatedAt")

        delivery_health = DeliveryHealth.from_dict(d.pop("deliveryHealth"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        secret = d.pop("secret")

        webhook_endpoint_with_secret = cls(
            id=id,
            workspace_id=workspace_id,
            url=url,
            description=description,
            events=events,
            enabled=enabled,
            secret_rotated_at=secret_rotated_at,
            delivery_health=delivery_health,
            created_at=created_at,
            updated_at=updated_at,
            secret=secret,
        )

        webhook_endpoint_with_secret.additional_properties = d
        return webhook_endpoint_with_secret

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
