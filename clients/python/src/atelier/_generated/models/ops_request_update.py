from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ops_request_update_note_visibility import OpsRequestUpdateNoteVisibility
from ..models.ops_request_update_state import OpsRequestUpdateState
from ..types import UNSET, Unset

T = TypeVar("T", bound="OpsRequestUpdate")


@_attrs_define
class OpsRequestUpdate:
    """
    Example:
        {'state': 'scoping', 'note': 'We will send a shot list by Friday.', 'noteVisibility': 'campaign'}

    Attributes:
        state (OpsRequestUpdateState | Unset):
        note (str | Unset):
        note_visibility (OpsRequestUpdateNoteVisibility | Unset): campaign notes are shown to the customer; internal
            ones never are Default: OpsRequestUpdateNoteVisibility.INTERNAL.
    """

    state: OpsRequestUpdateState | Unset = UNSET
    note: str | Unset = UNSET
    note_visibility: OpsRequestUpdateNoteVisibility | Unset = (
        OpsRequestUpdateNoteVisibility.INTERNAL
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        state: str | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.value

        note = self.note

        note_visibility: str | Unset = UNSET
        if not isinstance(self.note_visibility, Unset):
            note_visibility = self.note_visibility.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if state is not UNSET:
            field_dict["state"] = state
        if note is not UNSET:
            field_dict["note"] = note
        if note_visibility is not UNSET:
            field_dict["noteVisibility"] = note_visibility

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _state = d.pop("state", UNSET)
        state: OpsRequestUpdateState | Unset
        if isinstance(_state, Unset):
            state = UNSET
        else:
            state = OpsRequestUpdateState(_state)

        note = d.pop("note", UNSET)

        _note_visibility = d.pop("noteVisibility", UNSET)
        note_visibility: OpsRequestUpdateNoteVisibility | Unset
        if isinstance(_note_visibility, Unset):
            note_visibility = UNSET
        else:
            note_visibility = OpsRequestUpdateNoteVisibility(_note_visibility)

        ops_request_update = cls(
            state=state,
            note=note,
            note_visibility=note_visibility,
        )

        ops_request_update.additional_properties = d
        return ops_request_update

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
