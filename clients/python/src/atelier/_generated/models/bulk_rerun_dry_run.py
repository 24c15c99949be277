from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bulk_failed import BulkFailed
    from ..models.bulk_skipped import BulkSkipped


T = TypeVar("T", bound="BulkRerunDryRun")


@_attrs_define
class BulkRerunDryRun:
    """
    Attributes:
        dry_run (bool):
        matched (int): How many runs the filter matched (never more than limit: more is a 422)
        would_act (list[str]): The runs that would be rerun, newest first: every match whose rerun dry run passed
        skipped (list[BulkSkipped]):
        would_fail (list[BulkFailed]): Matches whose rerun dry run was refused (e.g. 400 template_deprecated, or 402
            from a budget judging that rerun alone)
        estimate_usd (float): The sum of the typical estimates of the reruns in wouldAct. Each was judged alone against
            budgets as they stand; the reruns together may be refused sooner, and the real bulk rerun stops at the first 402
    """

    dry_run: bool
    matched: int
    would_act: list[str]
    skipped: list[BulkSkipped]
    would_fail: list[BulkFailed]
    estimate_usd: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dry_run = self.dry_run

        matched = self.matched

        would_act = self.would_act

        skipped = []
        for skipped_item_data in self.skipped:
            skipped_item = skipped_item_data.to_dict()
            skipped.append(skipped_item)

        would_fail = []
        for would_fail_item_data in self.would_fail:
            would_fail_item = would_fail_item_data.to_dict()
            would_fail.append(would_fail_item)

        estimate_usd = self.estimate_usd

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dryRun": dry_run,
                "matched": matched,
                "wouldAct": would_act,
                "skipped": skipped,
                "wouldFail": would_fail,
                "estimateUsd": estimate_usd,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bulk_failed import BulkFailed
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

        would_fail = []
        _would_fail = d.pop("wouldFail")
        for would_fail_item_data in _would_fail:
            would_fail_item = BulkFailed.from_dict(would_fail_item_data)

            would_fail.append(would_fail_item)

        estimate_usd = d.pop("estimateUsd")

        bulk_rerun_dry_run = cls(
            dry_run=dry_run,
            matched=matched,
            would_act=would_act,
            skipped=skipped,
            would_fail=would_fail,
            estimate_usd=estimate_usd,
        )

        bulk_rerun_dry_run.additional_properties = d
        return bulk_rerun_dry_run

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
