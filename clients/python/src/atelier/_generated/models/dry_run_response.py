from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.dry_run_response_estimate import DryRunResponseEstimate
    from ..models.dry_run_response_steps_item import DryRunResponseStepsItem


T = TypeVar("T", bound="DryRunResponse")


@_attrs_define
class DryRunResponse:
    """
    Attributes:
        ok (bool): No errors; judge a pass by stepCount and warnings as well
        step_count (int):
        steps (list[DryRunResponseStepsItem]):
        errors (list[str]):
        warnings (list[str]):
        estimate (DryRunResponseEstimate):
    """

    ok: bool
    step_count: int
    steps: list[DryRunResponseStepsItem]
    errors: list[str]
    warnings: list[str]
    estimate: DryRunResponseEstimate
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        step_count = self.step_count

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        errors = self.errors

        warnings = self.warnings

        estimate = self.estimate.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ok": ok,
                "stepCount": step_count,
                "steps": steps,
                "errors": errors,
                "warnings": warnings,
                "estimate": estimate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.dry_run_response_estimate import DryRunResponseEstimate
        from ..models.dry_run_response_steps_item import DryRunResponseStepsItem

        d = dict(src_dict)
        ok = d.pop("ok")

        step_count = d.pop("stepCount")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = DryRunResponseStepsItem.from_dict(steps_item_data)

            steps.append(steps_item)

        errors = cast(list[str], d.pop("errors"))

        warnings = cast(list[str], d.pop("warnings"))

        estimate = DryRunResponseEstimate.from_dict(d.pop("estimate"))

        dry_run_response = cls(
            ok=ok,
            step_count=step_count,
            steps=steps,
            errors=errors,
            warnings=warnings,
            estimate=estimate,
        )

        dry_run_response.additional_properties = d
        return dry_run_response

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
