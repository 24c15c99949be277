from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.estimate_request_budget_policy import EstimateRequestBudgetPolicy
    from ..models.estimate_request_providers import EstimateRequestProviders
    from ..models.estimate_request_runtime_steps_item import (
        EstimateRequestRuntimeStepsItem,
    )


T = TypeVar("T", bound="EstimateRequest")


@_attrs_define
class EstimateRequest:
    """
    Example:
        {'runtimeSteps': [{'id': 'step-1', 'name': 'Outline', 'kind': 'llm', 'role': 'researcher', 'capability':
            'text'}], 'providers': {'researcher': 'anthropic/claude-haiku-4-5'}, 'budgetPolicy': {'perRunCapUsd': 2}}

    Attributes:
        runtime_steps (list[EstimateRequestRuntimeStepsItem]): Step objects of a draft
        providers (EstimateRequestProviders):
        id (str | Unset): The draft workflow id, when there is one; published catalog workflows cannot be estimated
        version (str | Unset):
        budget_policy (EstimateRequestBudgetPolicy | Unset):
    """

    runtime_steps: list[EstimateRequestRuntimeStepsItem]
    providers: EstimateRequestProviders
    id: str | Unset = UNSET
    version: str | Unset = UNSET
    budget_policy: EstimateRequestBudgetPolicy | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        runtime_steps = []
        for runtime_steps_item_data in self.runtime_steps:
            runtime_steps_item = runtime_steps_item_data.to_dict()
            runtime_steps.append(runtime_steps_item)

        providers = self.providers.to_dict()

        id = self.id

        version = self.version

        budget_policy: dict[str, Any] | Unset = UNSET
        if not isinstance(self.budget_policy, Unset):
            budget_policy = self.budget_policy.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runtimeSteps": runtime_steps,
                "providers": providers,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if version is not UNSET:
            field_dict["version"] = version
        if budget_policy is not UNSET:
            field_dict["budgetPolicy"] = budget_policy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.estimate_request_budget_policy import EstimateRequestBudgetPolicy
        from ..models.estimate_request_providers import EstimateRequestProviders
        from ..models.estimate_request_runtime_steps_item import (
            EstimateRequestRuntimeStepsItem,
        )

        d = dict(src_dict)
        runtime_steps = []
        _runtime_steps = d.pop("runtimeSteps")
        for runtime_steps_item_data in _runtime_steps:
            runtime_steps_item = EstimateRequestRuntimeStepsItem.from_dict(
                runtime_steps_item_data
            )

            runtime_steps.append(runtime_steps_item)

        providers = EstimateRequestProviders.from_dict(d.pop("providers"))

        id = d.pop("id", UNSET)

        version = d.pop("version", UNSET)

        _budget_policy = d.pop("budgetPolicy", UNSET)
        budget_policy: EstimateRequestBudgetPolicy | Unset
        if isinstance(_budget_policy, Unset):
            budget_policy = UNSET
        else:
            budget_policy = EstimateRequestBudgetPolicy.from_dict(_budget_policy)

        estimate_request = cls(
            runtime_steps=runtime_steps,
            providers=providers,
            id=id,
            version=version,
            budget_policy=budget_policy,
        )

        estimate_request.additional_properties = d
        return estimate_request

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
