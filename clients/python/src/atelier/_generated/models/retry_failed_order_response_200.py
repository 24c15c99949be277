from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.order import Order


T = TypeVar("T", bound="RetryFailedOrderResponse200")


@_attrs_define
class RetryFailedOrderResponse200:
    """
    Attributes:
        order (Order):
        retried (list[str]):
    """

    order: Order
    retried: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        order = self.order.to_dict()

        retried = self.retried

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "order": order,
                "retried": retried,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.order import Order

        d = dict(src_dict)
        order = Order.from_dict(d.pop("order"))

        retried = cast(list[str], d.pop("retried"))

        retry_failed_order_response_200 = cls(
            order=order,
            retried=retried,
        )

        retry_failed_order_response_200.additional_properties = d
        return retry_failed_order_response_200

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
