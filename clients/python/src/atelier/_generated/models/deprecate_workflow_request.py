from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeprecateWorkflowRequest")


@_attrs_define
class DeprecateWorkflowRequest:
    """
    Example:
        {'supersededById': 'plan-bee-guide'}

    Attributes:
        superseded_by_id (str): An existing workflow the caller can see; runs of the deprecated one are refused naming
            it
    """

    superseded_by_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        superseded_by_id = self.superseded_by_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "supersededById": superseded_by_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        superseded_by_id = d.pop("supersededById")

        deprecate_workflow_request = cls(
            superseded_by_id=superseded_by_id,
        )

        deprecate_workflow_request.additional_properties = d
        return deprecate_workflow_request

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
