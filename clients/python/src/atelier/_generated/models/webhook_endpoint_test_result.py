from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_test_result_status import WebhookEndpointTestResultStatus
from ..models.webhook_endpoint_test_result_type import WebhookEndpointTestResultType

T = TypeVar("T", bound="WebhookEndpointTestResult")


@_attrs_define
class WebhookEndpointTestResult:
    """
    Attributes:
        message_id (str): The webhook-id of the test message; follow it under deliveries
        type_ (WebhookEndpointTestResultType):
        status (WebhookEndpointTestResultStatus): The engine delivers it like any event, with the same retries
    """

    message_id: str
    type_: WebhookEndpointTestResultType
    status: WebhookEndpointTestResultStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_id = self.message_id

        type_ = self.type_.value

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "messageId": message_id,
                "type": type_,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message_id = d.pop("messageId")

        type_ = WebhookEndpointTestResultType(d.pop("type"))

        status = WebhookEndpointTestResultStatus(d.pop("status"))

        webhook_endpoint_test_result = cls(
            message_id=message_id,
            type_=type_,
            status=status,
        )

        webhook_endpoint_test_result.additional_properties = d
        return webhook_endpoint_test_result

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
