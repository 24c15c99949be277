from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bulk_failed import BulkFailed
    from ..models.bulk_skipped import BulkSkipped


T = TypeVar("T", bound="BulkCancelResult")


@_attrs_define
class BulkCancelResult:
    """
    Attributes:
        dry_run (bool):
        matched (int): How many runs the filter matched (never more than limit: more is a 422)
        acted (list[str]): The runs asked to cancel; each settles as cancelled at its next step boundary
        skipped (list[BulkSkipped]):
        failed (list[BulkFailed]): Runs the cancel refused, e.g. 409 for one that ended meanwhile
    """

    dry_run: bool
    matched: int
    acted: list[str]
    skipped: list[BulkSkipped]
    failed: list[BulkFailed]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dry_run = self.dry_run

        matched = self.matched

        acted = self.acted

        skipped = []
        for skipped_item_data in self.skipped:
            skipped_item = skipped_item_data.to_dict()
            skipped.append(skipped_item)

        failed = []
        for failed_item_data in self.failed:
            failed_item = failed_item_data.to_dict()
            failed.append(failed_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dryRun": dry_run,
                "matched": matched,
                "acted": acted,
                "skipped": skipped,
                "failed": failed,
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

        acted = cast(list[str], d.pop("acted"))

        skipped = []
        _skipped = d.pop("skipped")
        for skipped_item_data in _skipped:
            skipped_item = BulkSkipped.from_dict(skipped_item_data)

            skipped.append(skipped_item)

        failed = []
        _failed = d.pop("failed")
        for failed_item_data in _failed:
            failed_item = BulkFailed.from_dict(failed_item_data)

            failed.append(failed_item)

        bulk_cancel_result = cls(
            dry_run=dry_run,
            matched=matched,
            acted=acted,
            skipped=skipped,
            failed=failed,
        )

        bulk_cancel_result.additional_properties = d
        return bulk_cancel_result

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
