from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_attempt_outcome import WebhookEndpointAttemptOutcome

T = TypeVar("T", bound="WebhookEndpointAttempt")


@_attrs_define
class WebhookEndpointAttempt:
    """
    Attributes:
        attempt (int): The attempt's number (an attempt lost with a killed worker leaves a gap)
        attempted_at (str):
        webhook_timestamp (int): The webhook-timestamp this attempt was signed with
        url (str):
        status_code (int | None): null when no answer came (network error, timeout, refused URL)
        outcome (WebhookEndpointAttemptOutcome): failed: final (no further attempt of this message)
        error (None | str):
        redirected_to (None | str):
        duration_ms (int):
    """

    attempt: int
    attempted_at: str
    webhook_timestamp: int
    url: str
    status_code: int | None
    outcome: WebhookEndpointAttemptOutcome
    error: None | str
    redirected_to: None | str
    duration_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        attempted_at = self.attempted_at

        webhook_timestamp = self.webhook_timestamp

        url = self.url

        status_code: int | None
        status_code = self.status_code

        outcome = self.outcome.value

        error: None | str
        error = self.error

        redirected_to: None | str
        redirected_to = self.redirected_to

        duration_ms = self.duration_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "attemptedAt": attempted_at,
                "webhookTimestamp": webhook_timestamp,
                "url": url,
                "statusCode": status_code,
                "outcome": outcome,
                "error": error,
                "redirectedTo": redirected_to,
                "durationMs": duration_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        attempted_at = d.pop("attemptedAt")

        webhook_timestamp = d.pop("webhookTimestamp")

        url = d.pop("url")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))

        outcome = WebhookEndpointAttemptOutcome(d.pop("outcome"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_redirected_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        redirected_to = _parse_redirected_to(d.pop("redirectedTo"))

        duration_ms = d.pop("durationMs")

        webhook_endpoint_attempt = cls(
            attempt=attempt,
            attempted_at=attempted_at,
            webhook_timestamp=webhook_timestamp,
            url=url,
            status_code=status_code,
            outcome=outcome,
            error=error,
            redirected_to=redirected_to,
            duration_ms=duration_ms,
        )

        webhook_endpoint_attempt.additional_properties = d
        return webhook_endpoint_attempt

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
