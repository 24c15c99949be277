from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.estimated_cost import EstimatedCost
    from ..models.rerun_create_body import RerunCreateBody


T = TypeVar("T", bound="RerunDryRun")


@_attrs_define
class RerunDryRun:
    """A rerun dry run: estimate is what the rerun is estimated to cost (budgets judge typical, runEstimateUsd in a 402);
    wouldCreate is the run it would create, as the body POST /v1/runs would be sent with the version it pins

        Attributes:
            estimate (EstimatedCost):
            would_create (RerunCreateBody):  Example: {'templateId': 'plan-research-report', 'workflowVersion':
                '2026.11.01', 'intake': {'topic': 'rooftop beekeeping in winter', 'depth': 'standard'}, 'workspaceId':
                '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'providers':
                {'researcher': 'anthropic/claude-haiku-4-5', 'textGenerator': 'anthropic/claude-haiku-4-5'}, 'priority':
                'normal', 'tags': ['q3-content', 'blog'], 'metadata': {'customer': 'acme'}, 'rerunOf': 'run-3f9a1c2e'}.
    """

    estimate: EstimatedCost
    would_create: RerunCreateBody
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        estimate = self.estimate.to_dict()

        would_create = self.would_create.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "estimate": estimate,
                "wouldCreate": would_create,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.estimated_cost import EstimatedCost
        from ..models.rerun_create_body import RerunCreateBody

        d = dict(src_dict)
        estimate = EstimatedCost.from_dict(d.pop("estimate"))

        would_create = RerunCreateBody.from_dict(d.pop("wouldCreate"))

        rerun_dry_run = cls(
            estimate=estimate,
            would_create=would_create,
        )

        rerun_dry_run.additional_properties = d
        return rerun_dry_run

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
