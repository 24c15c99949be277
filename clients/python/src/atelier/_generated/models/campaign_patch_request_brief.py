from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CampaignPatchRequestBrief")


@_attrs_define
class CampaignPatchRequestBrief:
    """Fields given replace those of the brief; others stay

    Attributes:
        objective (str | Unset):
        deliverables (list[str] | Unset):
        deadline (None | str | Unset):
        notes (str | Unset):
    """

    objective: str | Unset = UNSET
    deliverables: list[str] | Unset = UNSET
    deadline: None | str | Unset = UNSET
    notes: str | Unset = UNSET
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
        field_dict.update({})
        if objective is not UNSET:
            field_dict["objective"] = objective
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
        objective = d.pop("objective", UNSET)

        deliverables = cast(list[str], d.pop("deliverables", UNSET))

        def _parse_deadline(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))

        notes = d.pop("notes", UNSET)

        campaign_patch_request_brief = cls(
            objective=objective,
            deliverables=deliverables,
            deadline=deadline,
            notes=notes,
        )

        campaign_patch_request_brief.additional_properties = d
        return campaign_patch_request_brief

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
