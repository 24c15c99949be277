from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_delivery_status import WebhookEndpointDeliveryStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_endpoint_attempt import WebhookEndpointAttempt


T = TypeVar("T", bound="WebhookEndpointDelivery")


@_attrs_define
class WebhookEndpointDelivery:
    """
    Attributes:
        message_id (str): The webhook-id: the same on every attempt of this message
        type_ (str): The event type (or endpoint.test)
        status (WebhookEndpointDeliveryStatus): pending: being delivered or waiting for its next attempt
        attempt_count (int):
        last_error (None | str):
        created_at (str):
        settled_at (None | str):
        attempts (list[WebhookEndpointAttempt]): Oldest first
        payload (Any | Unset): The exact JSON every attempt sends
    """

    message_id: str
    type_: str
    status: WebhookEndpointDeliveryStatus
    attempt_count: int
    last_error: None | str
    created_at: str
    settled_at: None | str
    attempts: list[WebhookEndpointAttempt]
    payload: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_id = self.message_id

        type_ = self.type_

        status = self.status.value

        attempt_count = self.attempt_count

        last_error: None | str
        last_error = self.last_error

        created_at = self.created_at

        settled_at: None | str
        settled_at = self.settled_at

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        payload = self.payload

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "messageId": message_id,
                "type": type_,
                "status": status,
                "attemptCount": attempt_count,
                "lastError": last_error,
                "createdAt": created_at,
                "settledAt": settled_at,
                "attempts": attempts,
            }
        )
        if payload is not UNSET:
            field_dict["payload"] = payload

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint_attempt import WebhookEndpointAttempt

        d = dict(src_dict)
        message_id = d.pop("messageId")

        type_ = d.pop("type")

        status = WebhookEndpointDeliveryStatus(d.pop("status"))

        attempt_count = d.pop("attemptCount")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        created_at = d.pop("createdAt")

        def _parse_settled_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        settled_at = _parse_settled_at(d.pop("settledAt"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = WebhookEndpointAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        payload = d.pop("payload", UNSET)

        webhook_endpoint_delivery = cls(
            message_id=message_id,
            type_=type_,
            status=status,
            attempt_count=attempt_count,
            last_error=last_error,
            created_at=created_at,
            settled_at=settled_at,
            attempts=attempts,
            payload=payload,
        )

        webhook_endpoint_delivery.additional_properties = d
        return webhook_endpoint_delivery

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
