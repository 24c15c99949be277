from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.estimate_response_steps_item import EstimateResponseStepsItem
    from ..models.estimated_cost import EstimatedCost


T = TypeVar("T", bound="EstimateResponse")


@_attrs_define
class EstimateResponse:
    """
    Attributes:
        estimated_cost (EstimatedCost):
        per_run_cap_usd (float | None):
        high_cost (bool): typical above perRunCapUsd, or above 1 USD when there is no cap
        steps (list[EstimateResponseStepsItem]):
    """

    estimated_cost: EstimatedCost
    per_run_cap_usd: float | None
    high_cost: bool
    steps: list[EstimateResponseStepsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        estimated_cost = self.estimated_cost.to_dict()

        per_run_cap_usd: float | None
        per_run_cap_usd = self.per_run_cap_usd

        high_cost = self.high_cost

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "estimatedCost": estimated_cost,
                "perRunCapUsd": per_run_cap_usd,
                "highCost": high_cost,
                "steps": steps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.estimate_response_steps_item import EstimateResponseStepsItem
        from ..models.estimated_cost import EstimatedCost

        d = dict(src_dict)
        estimated_cost = EstimatedCost.from_dict(d.pop("estimatedCost"))

        def _parse_per_run_cap_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        per_run_cap_usd = _parse_per_run_cap_usd(d.pop("perRunCapUsd"))

        high_cost = d.pop("highCost")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in _steps:
            steps_item = EstimateResponseStepsItem.from_dict(steps_item_data)

            steps.append(steps_item)

        estimate_response = cls(
            estimated_cost=estimated_cost,
            per_run_cap_usd=per_run_cap_usd,
            high_cost=high_cost,
            steps=steps,
        )

        estimate_response.additional_properties = d
        return estimate_response

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
