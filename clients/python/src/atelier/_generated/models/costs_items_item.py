from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CostsItemsItem")


@_attrs_define
class CostsItemsItem:
    """
    Attributes:
        key (None | str):
        actual_usd (float):
        estimated_usd (float):
        runs (int):
    """

    key: None | str
    actual_usd: float
    estimated_usd: float
    runs: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key: None | str
        key = self.key

        actual_usd = self.actual_usd

        estimated_usd = self.estimated_usd

        runs = self.runs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "actualUsd": actual_usd,
                "estimatedUsd": estimated_usd,
                "runs": runs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key = _parse_key(d.pop("key"))

        actual_usd = d.pop("actualUsd")

        estimated_usd = d.pop("estimatedUsd")

        runs = d.pop("runs")

        costs_items_item = cls(
            key=key,
            actual_usd=actual_usd,
            estimated_usd=estimated_usd,
            runs=runs,
        )

        costs_items_item.additional_properties = d
        return costs_items_item

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
