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
        order (Order):  Example: {'id': 'order-5b8e2c41', 'workflowId': 'plan-research-report', 'workflowVersion':
            '2026.11.01', 'status': 'attention', 'executionMode': 'standard', 'targetCount': 3, 'counts': {'planned': 0,
            'running': 0, 'succeeded': 2, 'failed': 1, 'skipped': 0, 'cancelled': 0}, 'estimatedCostUsd': 0.126,
            'actualCostUsd': 0.089, 'budgetLimitUsd': 12.5, 'budgetEnforcementMode': 'hard_stop', 'currency': 'USD',
            'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
            'planArtifactId': None, 'priority': 'normal', 'maxConcurrency': None, 'providerOverrides': {},
            'acceptGapReason': None, 'failureReason': None, 'createdAt': '2026-11-26T10:20:00.000Z', 'startedAt':
            '2026-11-26T10:21:12.500Z', 'finishedAt': None}.
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
