from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.client_event_from_status_type_1 import ClientEventFromStatusType1
from ..models.client_event_from_status_type_2_type_1 import (
    ClientEventFromStatusType2Type1,
)
from ..models.client_event_from_status_type_3_type_1 import (
    ClientEventFromStatusType3Type1,
)
from ..models.client_event_to_status import ClientEventToStatus

T = TypeVar("T", bound="ClientEvent")


@_attrs_define
class ClientEvent:
    """
    Attributes:
        id (int):
        from_status (ClientEventFromStatusType1 | ClientEventFromStatusType2Type1 | ClientEventFromStatusType3Type1 |
            None):
        to_status (ClientEventToStatus):
        status_note (None | str):
        actor_id (None | UUID):
        created_at (str):
    """

    id: int
    from_status: (
        ClientEventFromStatusType1
        | ClientEventFromStatusType2Type1
        | ClientEventFromStatusType3Type1
        | None
    )
    to_status: ClientEventToStatus
    status_note: None | str
    actor_id: None | UUID
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        from_status: None | str
        if (
            isinstance(self.from_status, ClientEventFromStatusType1)
            or isinstance(self.from_status, ClientEventFromStatusType2Type1)
            or isinstance(self.from_status, ClientEventFromStatusType3Type1)
        ):
            from_status = self.from_status.value
        else:
            from_status = self.from_status

        to_status = self.to_status.value

        status_note: None | str
        status_note = self.status_note

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
                "fromStatus": from_status,
                "toStatus": to_status,
                "statusNote": status_note,
                "actorId": actor_id,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_from_status(
            data: object,
        ) -> (
            ClientEventFromStatusType1
            | ClientEventFromStatusType2Type1
            | ClientEventFromStatusType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_1 = ClientEventFromStatusType1(data)

                return from_status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_2_type_1 = ClientEventFromStatusType2Type1(data)

                return from_status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_3_type_1 = ClientEventFromStatusType3Type1(data)

                return from_status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                ClientEventFromStatusType1
                | ClientEventFromStatusType2Type1
                | ClientEventFromStatusType3Type1
                | None,
                data,
            )

        from_status = _parse_from_status(d.pop("fromStatus"))

        to_status = ClientEventToStatus(d.pop("toStatus"))

        def _parse_status_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status_note = _parse_status_note(d.pop("statusNote"))

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

        client_event = cls(
            id=id,
            from_status=from_status,
            to_status=to_status,
            status_note=status_note,
            actor_id=actor_id,
            created_at=created_at,
        )

        client_event.additional_properties = d
        return client_event

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
