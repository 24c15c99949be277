from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.run_filter import RunFilter


T = TypeVar("T", bound="BulkCancelRequest")


@_attrs_define
class BulkCancelRequest:
    """
    Example:
        {'filter': {'status': 'running', 'tag': ['campaign:spring']}, 'dryRun': True, 'limit': 100}

    Attributes:
        filter_ (RunFilter): The runs a bulk action chooses, as GET /v1/runs filters them (one workspace: the one named,
            else the project's or order's, else the key's or the caller's default); {} chooses every run of that workspace
        dry_run (bool | Unset): true: change nothing; answer what would be done
        limit (int | Unset): A safety cap (1–1000, default 100): a filter matching more runs is refused whole (422
            bulk_limit_exceeded, with matched and limit), dry run included; nothing is done in part Default: 100.
    """

    filter_: RunFilter
    dry_run: bool | Unset = UNSET
    limit: int | Unset = 100
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filter_ = self.filter_.to_dict()

        dry_run = self.dry_run

        limit = self.limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "filter": filter_,
            }
        )
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_filter import RunFilter

        d = dict(src_dict)
        filter_ = RunFilter.from_dict(d.pop("filter"))

        dry_run = d.pop("dryRun", UNSET)

        limit = d.pop("limit", UNSET)

        bulk_cancel_request = cls(
            filter_=filter_,
            dry_run=dry_run,
            limit=limit,
        )

        bulk_cancel_request.additional_properties = d
        return bulk_cancel_request

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
