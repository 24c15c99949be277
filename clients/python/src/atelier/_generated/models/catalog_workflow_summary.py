from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.catalog_workflow_summary_status import CatalogWorkflowSummaryStatus

if TYPE_CHECKING:
    from ..models.catalog_workflow_summary_provided_item import (
        CatalogWorkflowSummaryProvidedItem,
    )
    from ..models.catalog_workflow_summary_returned import (
        CatalogWorkflowSummaryReturned,
    )


T = TypeVar("T", bound="CatalogWorkflowSummary")


@_attrs_define
class CatalogWorkflowSummary:
    """
    Attributes:
        id (str):
        name (str):
        purpose (str):
        artifact_class (str):
        output_type (None | str):
        version (str):
        status (CatalogWorkflowSummaryStatus):
        superseded_by_id (None | str):
        rough_duration_seconds (int | None):
        qa_included (bool):
        provided (list[CatalogWorkflowSummaryProvidedItem]):
        returned (CatalogWorkflowSummaryReturned):
    """

    id: str
    name: str
    purpose: str
    artifact_class: str
    output_type: None | str
    version: str
    status: CatalogWorkflowSummaryStatus
    superseded_by_id: None | str
    rough_duration_seconds: int | None
    qa_included: bool
    provided: list[CatalogWorkflowSummaryProvidedItem]
    returned: CatalogWorkflowSummaryReturned
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        purpose = self.purpose

        artifact_class = self.artifact_class

        output_type: None | str
        output_type = self.output_type

        version = self.version

        status = self.status.value

        superseded_by_id: None | str
        superseded_by_id = self.superseded_by_id

        rough_duration_seconds: int | None
        rough_duration_seconds = self.rough_duration_seconds

        qa_included = self.qa_included

        provided = []
        for provided_item_data in self.provided:
            provided_item = provided_item_data.to_dict()
            provided.append(provided_item)

        returned = self.returned.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "purpose": purpose,
                "artifactClass": artifact_class,
                "outputType": output_type,
                "version": version,
                "status": status,
                "supersededById": superseded_by_id,
                "roughDurationSeconds": rough_duration_seconds,
                "qaIncluded": qa_included,
                "provided": provided,
                "returned": returned,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_workflow_summary_provided_item import (
            CatalogWorkflowSummaryProvidedItem,
        )
        from ..models.catalog_workflow_summary_returned import (
            CatalogWorkflowSummaryReturned,
        )

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        purpose = d.pop("purpose")

        artifact_class = d.pop("artifactClass")

        def _parse_output_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        output_type = _parse_output_type(d.pop("outputType"))

        version = d.pop("version")

        status = CatalogWorkflowSummaryStatus(d.pop("status"))

        def _parse_superseded_by_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        superseded_by_id = _parse_superseded_by_id(d.pop("supersededById"))

        def _parse_rough_duration_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rough_duration_seconds = _parse_rough_duration_seconds(
            d.pop("roughDurationSeconds")
        )

        qa_included = d.pop("qaIncluded")

        provided = []
        _provided = d.pop("provided")
        for provided_item_data in _provided:
            provided_item = CatalogWorkflowSummaryProvidedItem.from_dict(
                provided_item_data
            )

            provided.append(provided_item)

        returned = CatalogWorkflowSummaryReturned.from_dict(d.pop("returned"))

        catalog_workflow_summary = cls(
            id=id,
            name=name,
            purpose=purpose,
            artifact_class=artifact_class,
            output_type=output_type,
            version=version,
            status=status,
            superseded_by_id=superseded_by_id,
            rough_duration_seconds=rough_duration_seconds,
            qa_included=qa_included,
            provided=provided,
            returned=returned,
        )

        catalog_workflow_summary.additional_properties = d
        return catalog_workflow_summary

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
