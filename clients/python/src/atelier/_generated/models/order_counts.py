from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OrderCounts")


@_attrs_define
class OrderCounts:
    """
    Attributes:
        planned (int):
        running (int):
        succeeded (int):
        failed (int):
        skipped (int):
        cancelled (int):
    """

    planned: int
    running: int
    succeeded: int
    failed: int
    skipped: int
    cancelled: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        planned = self.planned

        running = self.running

        succeeded = self.succeeded

        failed = self.failed

        skipped = self.skipped

        cancelled = self.cancelled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "planned": planned,
                "running": running,
                "succeeded": succeeded,
                "failed": failed,
                "skipped": skipped,
                "cancelled": cancelled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        planned = d.pop("planned")

        running = d.pop("running")

        succeeded = d.pop("succeeded")

        failed = d.pop("failed")

        skipped = d.pop("skipped")

        cancelled = d.pop("cancelled")

        order_counts = cls(
            planned=planned,
            running=running,
            succeeded=succeeded,
            failed=failed,
            skipped=skipped,
            cancelled=cancelled,
        )

        order_counts.additional_properties = d
        return order_counts

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
