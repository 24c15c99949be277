from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bulk_skipped import BulkSkipped


T = TypeVar("T", bound="BulkCancelDryRun")


@_attrs_define
class BulkCancelDryRun:
    """
    Attributes:
        dry_run (bool):
        matched (int): How many runs the filter matched (never more than limit: more is a 422)
        would_act (list[str]): The runs that would be asked to cancel, newest first
        skipped (list[BulkSkipped]):
    """

    dry_run: bool
    matched: int
    would_act: list[str]
    skipped: list[BulkSkipped]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dry_run = self.dry_run

        matched = self.matched

        would_act = self.would_act

        skipped = []
        for skipped_item_data in self.skipped:
            skipped_item = skipped_item_data.to_dict()
            skipped.append(skipped_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dryRun": dry_run,
                "matched": matched,
                "wouldAct": would_act,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bulk_skipped import BulkSkipped

        d = dict(src_dict)
        dry_run = d.pop("dryRun")

        matched = d.pop("matched")

        would_act = cast(list[str], d.pop("wouldAct"))

        skipped = []
        _skipped = d.pop("skipped")
        for skipped_item_data in _skipped:
            skipped_item = BulkSkipped.from_dict(skipped_item_data)

            skipped.append(skipped_item)

        bulk_cancel_dry_run = cls(
            dry_run=dry_run,
            matched=matched,
            would_act=would_act,
            skipped=skipped,
        )

        bulk_cancel_dry_run.additional_properties = d
        return bulk_cancel_dry_run

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
