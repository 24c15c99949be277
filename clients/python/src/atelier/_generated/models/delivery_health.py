from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_health_status import DeliveryHealthStatus

T = TypeVar("T", bound="DeliveryHealth")


@_attrs_define
class DeliveryHealth:
    """
    Attributes:
        status (DeliveryHealthStatus): healthy: the last attempt was answered 2xx; failing: it was not; unknown: nothing
            sent yet
        last_attempt_at (None | str):
        last_status_code (int | None): null when the last attempt got no answer (network error, timeout, refused URL)
        consecutive_failures (int):
    """

    status: DeliveryHealthStatus
    last_attempt_at: None | str
    last_status_code: int | None
    consecutive_failures: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        last_attempt_at: None | str
        last_attempt_at = self.last_attempt_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        consecutive_failures = self.consecutive_failures

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "lastAttemptAt": last_attempt_at,
                "lastStatusCode": last_status_code,
                "consecutiveFailures": consecutive_failures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = DeliveryHealthStatus(d.pop("status"))

        def _parse_last_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("lastAttemptAt"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("lastStatusCode"))

        consecutive_failures = d.pop("consecutiveFailures")

        delivery_health = cls(
            status=status,
            last_attempt_at=last_attempt_at,
            last_status_code=last_status_code,
            consecutive_failures=consecutive_failures,
        )

        delivery_health.additional_properties = d
        return delivery_health

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
