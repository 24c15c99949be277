from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BulkRerunResultRerunsItem")


@_attrs_define
class BulkRerunResultRerunsItem:
    """
    Attributes:
        run_id (str):
        rerun_of (str):
    """

    run_id: str
    rerun_of: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        rerun_of = self.rerun_of

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runId": run_id,
                "rerunOf": rerun_of,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        run_id = d.pop("runId")

        rerun_of = d.pop("rerunOf")

        bulk_rerun_result_reruns_item = cls(
            run_id=run_id,
            rerun_of=rerun_of,
        )

        bulk_rerun_result_reruns_item.additional_properties = d
        return bulk_rerun_result_reruns_item

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
