from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.profile_confirm_request_fields_item import ProfileConfirmRequestFieldsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProfileConfirmRequest")


@_attrs_define
class ProfileConfirmRequest:
    """
    Example:
        {'runId': 'run-4a7c9e1b', 'fields': ['voice', 'visual']}

    Attributes:
        run_id (str):
        fields (list[ProfileConfirmRequestFieldsItem] | Unset): Top-level fields to accept; all when absent
    """

    run_id: str
    fields: list[ProfileConfirmRequestFieldsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        fields: list[str] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = []
            for fields_item_data in self.fields:
                fields_item = fields_item_data.value
                fields.append(fields_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runId": run_id,
            }
        )
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        run_id = d.pop("runId")

        _fields = d.pop("fields", UNSET)
        fields: list[ProfileConfirmRequestFieldsItem] | Unset = UNSET
        if _fields is not UNSET:
            fields = []
            for fields_item_data in _fields:
                fields_item = ProfileConfirmRequestFieldsItem(fields_item_data)

                fields.append(fields_item)

        profile_confirm_request = cls(
            run_id=run_id,
            fields=fields,
        )

        profile_confirm_request.additional_properties = d
        return profile_confirm_request

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
