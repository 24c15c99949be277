from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.costs_items_item import CostsItemsItem


T = TypeVar("T", bound="Costs")


@_attrs_define
class Costs:
    """
    Attributes:
        currency (str):
        total_usd (float):
        group_by (str):
        items (list[CostsItemsItem]):
    """

    currency: str
    total_usd: float
    group_by: str
    items: list[CostsItemsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        total_usd = self.total_usd

        group_by = self.group_by

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "totalUsd": total_usd,
                "groupBy": group_by,
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.costs_items_item import CostsItemsItem

        d = dict(src_dict)
        currency = d.pop("currency")

        total_usd = d.pop("totalUsd")

        group_by = d.pop("groupBy")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = CostsItemsItem.from_dict(items_item_data)

            items.append(items_item)

        costs = cls(
            currency=currency,
            total_usd=total_usd,
            group_by=group_by,
            items=items,
        )

        costs.additional_properties = d
        return costs

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
