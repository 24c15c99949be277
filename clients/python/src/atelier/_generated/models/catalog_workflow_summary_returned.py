from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CatalogWorkflowSummaryReturned")


@_attrs_define
class CatalogWorkflowSummaryReturned:
    """
    Attributes:
        artifact_class (str):
        artifact_type (str):
        files (list[str]):
        metadata (list[str]):
    """

    artifact_class: str
    artifact_type: str
    files: list[str]
    metadata: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        artifact_class = self.artifact_class

        artifact_type = self.artifact_type

        files = self.files

        metadata = self.metadata

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "artifactClass": artifact_class,
                "artifactType": artifact_type,
                "files": files,
                "metadata": metadata,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        artifact_class = d.pop("artifactClass")

        artifact_type = d.pop("artifactType")

        files = cast(list[str], d.pop("files"))

        metadata = cast(list[str], d.pop("metadata"))

        catalog_workflow_summary_returned = cls(
            artifact_class=artifact_class,
            artifact_type=artifact_type,
            files=files,
            metadata=metadata,
        )

        catalog_workflow_summary_returned.additional_properties = d
        return catalog_workflow_summary_returned

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
