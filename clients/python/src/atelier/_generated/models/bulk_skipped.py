from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.bulk_skipped_reason import BulkSkippedReason
from ..models.bulk_skipped_status import BulkSkippedStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="BulkSkipped")


@_attrs_define
class BulkSkipped:
    """
    Attributes:
        run_id (str):
        reason (BulkSkippedReason): terminal: the run had already ended, so there is nothing to cancel; budget: a budget
            refused an earlier rerun, so none after it was attempted
        status (BulkSkippedStatus | Unset): The run’s status, when the reason is terminal
    """

    run_id: str
    reason: BulkSkippedReason
    status: BulkSkippedStatus | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        reason = self.reason.value

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runId": run_id,
                "reason": reason,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        run_id = d.pop("runId")

        reason = BulkSkippedReason(d.pop("reason"))

        _status = d.pop("status", UNSET)
        status: BulkSkippedStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = BulkSkippedStatus(_status)

        bulk_skipped = cls(
            run_id=run_id,
            reason=reason,
            status=status,
        )

        bulk_skipped.additional_properties = d
        return bulk_skipped

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
