from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ops_request_entry_from_state_type_1 import OpsRequestEntryFromStateType1
from ..models.ops_request_entry_from_state_type_2_type_1 import (
    OpsRequestEntryFromStateType2Type1,
)
from ..models.ops_request_entry_from_state_type_3_type_1 import (
    OpsRequestEntryFromStateType3Type1,
)
from ..models.ops_request_entry_to_state_type_1 import OpsRequestEntryToStateType1
from ..models.ops_request_entry_to_state_type_2_type_1 import (
    OpsRequestEntryToStateType2Type1,
)
from ..models.ops_request_entry_to_state_type_3_type_1 import (
    OpsRequestEntryToStateType3Type1,
)
from ..models.ops_request_entry_visibility import OpsRequestEntryVisibility

T = TypeVar("T", bound="OpsRequestEntry")


@_attrs_define
class OpsRequestEntry:
    """
    Attributes:
        id (UUID):
        from_state (None | OpsRequestEntryFromStateType1 | OpsRequestEntryFromStateType2Type1 |
            OpsRequestEntryFromStateType3Type1):
        to_state (None | OpsRequestEntryToStateType1 | OpsRequestEntryToStateType2Type1 |
            OpsRequestEntryToStateType3Type1):
        note (None | str):
        visibility (OpsRequestEntryVisibility):
        actor_id (None | UUID):
        created_at (str):
    """

    id: UUID
    from_state: (
        None
        | OpsRequestEntryFromStateType1
        | OpsRequestEntryFromStateType2Type1
        | OpsRequestEntryFromStateType3Type1
    )
    to_state: (
        None
        | OpsRequestEntryToStateType1
        | OpsRequestEntryToStateType2Type1
        | OpsRequestEntryToStateType3Type1
    )
    note: None | str
    visibility: OpsRequestEntryVisibility
    actor_id: None | UUID
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        from_state: None | str
        if (
            isinstance(self.from_state, OpsRequestEntryFromStateType1)
            or isinstance(self.from_state, OpsRequestEntryFromStateType2Type1)
            or isinstance(self.from_state, OpsRequestEntryFromStateType3Type1)
        ):
            from_state = self.from_state.value
        else:
            from_state = self.from_state

        to_state: None | str
        if (
            isinstance(self.to_state, OpsRequestEntryToStateType1)
            or isinstance(self.to_state, OpsRequestEntryToStateType2Type1)
            or isinstance(self.to_state, OpsRequestEntryToStateType3Type1)
        ):
            to_state = self.to_state.value
        else:
            to_state = self.to_state

        note: None | str
        note = self.note

        visibility = self.visibility.value

        actor_id: None | str
        if isinstance(self.actor_id, UUID):
            actor_id = str(self.actor_id)
        else:
            actor_id = self.actor_id

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "fromState": from_state,
                "toState": to_state,
                "note": note,
                "visibility": visibility,
                "actorId": actor_id,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_from_state(
            data: object,
        ) -> (
            None
            | OpsRequestEntryFromStateType1
            | OpsRequestEntryFromStateType2Type1
            | OpsRequestEntryFromStateType3Type1
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_state_type_1 = OpsRequestEntryFromStateType1(data)

                return from_state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_state_type_2_type_1 = OpsRequestEntryFromStateType2Type1(data)

                return from_state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_state_type_3_type_1 = OpsRequestEntryFromStateType3Type1(data)

                return from_state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | OpsRequestEntryFromStateType1
                | OpsRequestEntryFromStateType2Type1
                | OpsRequestEntryFromStateType3Type1,
                data,
            )

        from_state = _parse_from_state(d.pop("fromState"))

        def _parse_to_state(
            data: object,
        ) -> (
            None
            | OpsRequestEntryToStateType1
            | OpsRequestEntryToStateType2Type1
            | OpsRequestEntryToStateType3Type1
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_state_type_1 = OpsRequestEntryToStateType1(data)

                return to_state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_state_type_2_type_1 = OpsRequestEntryToStateType2Type1(data)

                return to_state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_state_type_3_type_1 = OpsRequestEntryToStateType3Type1(data)

                return to_state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | OpsRequestEntryToStateType1
                | OpsRequestEntryToStateType2Type1
                | OpsRequestEntryToStateType3Type1,
                data,
            )

        to_state = _parse_to_state(d.pop("toState"))

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))

        visibility = OpsRequestEntryVisibility(d.pop("visibility"))

        def _parse_actor_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_id_type_0 = UUID(data)

                return actor_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_id = _parse_actor_id(d.pop("actorId"))

        created_at = d.pop("createdAt")

        ops_request_entry = cls(
            id=id,
            from_state=from_state,
            to_state=to_state,
            note=note,
            visibility=visibility,
            actor_id=actor_id,
            created_at=created_at,
        )

        ops_request_entry.additional_properties = d
        return ops_request_entry

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
