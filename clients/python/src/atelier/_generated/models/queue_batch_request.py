from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.queue_decision_entry import QueueDecisionEntry


T = TypeVar("T", bound="QueueBatchRequest")


@_attrs_define
class QueueBatchRequest:
    """
    Example:
        {'decisions': [{'runId': 'run-3f9a1c2e', 'decision': 'approve', 'note': 'Looks good'}, {'runId': 'run-7b2d4e8f',
            'decision': 'request_changes', 'note': 'Cite a source for the second section'}]}

    Attributes:
        decisions (list[QueueDecisionEntry]):
    """

    decisions: list[QueueDecisionEntry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decisions": decisions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_decision_entry import QueueDecisionEntry

        d = dict(src_dict)
        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = QueueDecisionEntry.from_dict(decisions_item_data)

            decisions.append(decisions_item)

        queue_batch_request = cls(
            decisions=decisions,
        )

        queue_batch_request.additional_properties = d
        return queue_batch_request

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
