from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.managed_request_note_state_type_1 import ManagedRequestNoteStateType1
from ..models.managed_request_note_state_type_2_type_1 import (
    ManagedRequestNoteStateType2Type1,
)
from ..models.managed_request_note_state_type_3_type_1 import (
    ManagedRequestNoteStateType3Type1,
)

T = TypeVar("T", bound="ManagedRequestNote")


@_attrs_define
class ManagedRequestNote:
    """
    Attributes:
        id (UUID):
        note (str):
        state (ManagedRequestNoteStateType1 | ManagedRequestNoteStateType2Type1 | ManagedRequestNoteStateType3Type1 |
            None): The state the request moved to with this note, if it moved
        created_at (str):
    """

    id: UUID
    note: str
    state: (
        ManagedRequestNoteStateType1
        | ManagedRequestNoteStateType2Type1
        | ManagedRequestNoteStateType3Type1
        | None
    )
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        note = self.note

        state: None | str
        if (
            isinstance(self.state, ManagedRequestNoteStateType1)
            or isinstance(self.state, ManagedRequestNoteStateType2Type1)
            or isinstance(self.state, ManagedRequestNoteStateType3Type1)
        ):
            state = self.state.value
        else:
            state = self.state

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "note": note,
                "state": state,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        note = d.pop("note")

        def _parse_state(
            data: object,
        ) -> (
            ManagedRequestNoteStateType1
            | ManagedRequestNoteStateType2Type1
            | ManagedRequestNoteStateType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_1 = ManagedRequestNoteStateType1(data)

                return state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_2_type_1 = ManagedRequestNoteStateType2Type1(data)

                return state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_3_type_1 = ManagedRequestNoteStateType3Type1(data)

                return state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                ManagedRequestNoteStateType1
                | ManagedRequestNoteStateType2Type1
                | ManagedRequestNoteStateType3Type1
                | None,
                data,
            )

        state = _parse_state(d.pop("state"))

        created_at = d.pop("createdAt")

        managed_request_note = cls(
            id=id,
            note=note,
            state=state,
            created_at=created_at,
        )

        managed_request_note.additional_properties = d
        return managed_request_note

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
