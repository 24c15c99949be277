from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery_health import DeliveryHealth


T = TypeVar("T", bound="PublicationVerifyResult")


@_attrs_define
class PublicationVerifyResult:
    """
    Attributes:
        verified (bool):
        message_id (str):
        consumer_status (int):
        delivery_health (DeliveryHealth):
    """

    verified: bool
    message_id: str
    consumer_status: int
    delivery_health: DeliveryHealth
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        verified = self.verified

        message_id = self.message_id

        consumer_status = self.consumer_status

        delivery_health = self.delivery_health.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "verified": verified,
                "messageId": message_id,
                "consumerStatus": consumer_status,
                "deliveryHealth": delivery_health,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_health import DeliveryHealth

        d = dict(src_dict)
        verified = d.pop("verified")

        message_id = d.pop("messageId")

        consumer_status = d.pop("consumerStatus")

        delivery_health = DeliveryHealth.from_dict(d.pop("deliveryHealth"))

        publication_verify_result = cls(
            verified=verified,
            message_id=message_id,
            consumer_status=consumer_status,
            delivery_health=delivery_health,
        )

        publication_verify_result.additional_properties = d
        return publication_verify_result

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
