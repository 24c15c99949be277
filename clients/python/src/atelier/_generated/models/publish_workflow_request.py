from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.publish_workflow_request_visibility import (
    PublishWorkflowRequestVisibility,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PublishWorkflowRequest")


@_attrs_define
class PublishWorkflowRequest:
    """
    Example:
        {'version': '2026.11.26', 'visibility': 'internal'}

    Attributes:
        version (str): The draft version to publish; it must sort after the previous published version
        visibility (PublishWorkflowRequestVisibility | Unset): internal (runnable by the workspace, never listed in the
            public catalog); workspace-authored workflows are never public Default:
            PublishWorkflowRequestVisibility.INTERNAL.
    """

    version: str
    visibility: PublishWorkflowRequestVisibility | Unset = (
        PublishWorkflowRequestVisibility.INTERNAL
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
            }
        )
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        version = d.pop("version")

        _visibility = d.pop("visibility", UNSET)
        visibility: PublishWorkflowRequestVisibility | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = PublishWorkflowRequestVisibility(_visibility)

        publish_workflow_request = cls(
            version=version,
            visibility=visibility,
        )

        publish_workflow_request.additional_properties = d
        return publish_workflow_request

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
