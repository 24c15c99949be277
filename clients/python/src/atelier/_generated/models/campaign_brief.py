from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignBrief")


@_attrs_define
class CampaignBrief:
    """
    Attributes:
        objective (str):
        deliverables (list[str] | Unset):
        deadline (None | str | Unset):
        notes (str | Unset):  Default: ''.
    """

    objective: str
    deliverables: list[str] | Unset = UNSET
    deadline: None | str | Unset = UNSET
    notes: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        objective = self.objective

        deliverables: list[str] | Unset = UNSET
        if not isinstance(self.deliverables, Unset):
            deliverables = self.deliverables

        deadline: None | str | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        else:
            deadline = self.deadline

        notes = self.notes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "objective": objective,
            }
        )
        if deliverables is not UNSET:
            field_dict["deliverables"] = deliverables
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        objective = d.pop("objective")

        deliverables = cast(list[str], d.pop("deliverables", UNSET))

        def _parse_deadline(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))

        notes = d.pop("notes", UNSET)

        campaign_brief = cls(
            objective=objective,
            deliverables=deliverables,
            deadline=deadline,
            notes=notes,
        )

        campaign_brief.additional_properties = d
        return campaign_brief

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
