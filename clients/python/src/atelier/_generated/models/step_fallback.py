from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.step_fallback_reason import StepFallbackReason

T = TypeVar("T", bound="StepFallback")


@_attrs_define
class StepFallback:
    """
    Attributes:
        role (str): The role whose binding listed the model
        model (str): The model-registry id skipped
        reason (StepFallbackReason): provider_unavailable: down, 5xx or timeouts after retries, or 503; model_not_found:
            404; provider_throttled: 429s outlasted the bounded wait
        error (str): The provider's failure, as the engine saw it
    """

    role: str
    model: str
    reason: StepFallbackReason
    error: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role

        model = self.model

        reason = self.reason.value

        error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "model": model,
                "reason": reason,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = d.pop("role")

        model = d.pop("model")

        reason = StepFallbackReason(d.pop("reason"))

        error = d.pop("error")

        step_fallback = cls(
            role=role,
            model=model,
            reason=reason,
            error=error,
        )

        step_fallback.additional_properties = d
        return step_fallback

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
