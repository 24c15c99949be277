from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.queue_item_hold_fields_item_type import QueueItemHoldFieldsItemType
from ..types import UNSET, Unset

T = TypeVar("T", bound="QueueItemHoldFieldsItem")


@_attrs_define
class QueueItemHoldFieldsItem:
    """
    Attributes:
        name (str):
        type_ (QueueItemHoldFieldsItemType):
        options (list[str] | Unset):
    """

    name: str
    type_: QueueItemHoldFieldsItemType
    options: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        options: list[str] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = QueueItemHoldFieldsItemType(d.pop("type"))

        options = cast(list[str], d.pop("options", UNSET))

        queue_item_hold_fields_item = cls(
            name=name,
            type_=type_,
            options=options,
        )

        queue_item_hold_fields_item.additional_properties = d
        return queue_item_hold_fields_item

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
