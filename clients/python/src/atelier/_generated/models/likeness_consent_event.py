from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.likeness_consent_event_from_status_type_1 import (
    LikenessConsentEventFromStatusType1,
)
from ..models.likeness_consent_event_from_status_type_2_type_1 import (
    LikenessConsentEventFromStatusType2Type1,
)
from ..models.likeness_consent_event_from_status_type_3_type_1 import (
    LikenessConsentEventFromStatusType3Type1,
)
from ..models.likeness_consent_event_to_status import LikenessConsentEventToStatus

T = TypeVar("T", bound="LikenessConsentEvent")


@_attrs_define
class LikenessConsentEvent:
    """
    Attributes:
        id (int):
        consent_id (UUID):
        from_status (LikenessConsentEventFromStatusType1 | LikenessConsentEventFromStatusType2Type1 |
            LikenessConsentEventFromStatusType3Type1 | None):
        to_status (LikenessConsentEventToStatus):
        actor_id (None | UUID):
        reason (None | str):
        created_at (str):
    """

    id: int
    consent_id: UUID
    from_status: (
        LikenessConsentEventFromStatusType1
        | LikenessConsentEventFromStatusType2Type1
        | LikenessConsentEventFromStatusType3Type1
        | None
    )
    to_status: LikenessConsentEventToStatus
    actor_id: None | UUID
    reason: None | str
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        consent_id = str(self.consent_id)

        from_status: None | str
        if (
            isinstance(self.from_status, LikenessConsentEventFromStatusType1)
            or isinstance(self.from_status, LikenessConsentEventFromStatusType2Type1)
            or isinstance(self.from_status, LikenessConsentEventFromStatusType3Type1)
        ):
            from_status = self.from_status.value
        else:
            from_status = self.from_status

        to_status = self.to_status.value

        actor_id: None | str
        if isinstance(self.actor_id, UUID):
            actor_id = str(self.actor_id)
        else:
            actor_id = self.actor_id

        reason: None | str
        reason = self.reason

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "consentId": consent_id,
                "fromStatus": from_status,
                "toStatus": to_status,
                "actorId": actor_id,
                "reason": reason,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        consent_id = UUID(d.pop("consentId"))

        def _parse_from_status(
            data: object,
        ) -> (
            LikenessConsentEventFromStatusType1
            | LikenessConsentEventFromStatusType2Type1
            | LikenessConsentEventFromStatusType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_1 = LikenessConsentEventFromStatusType1(data)

                return from_status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_2_type_1 = LikenessConsentEventFromStatusType2Type1(
                    data
                )

                return from_status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_3_type_1 = LikenessConsentEventFromStatusType3Type1(
                    data
                )

                return from_status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                LikenessConsentEventFromStatusType1
                | LikenessConsentEventFromStatusType2Type1
                | LikenessConsentEventFromStatusType3Type1
                | None,
                data,
            )

        from_status = _parse_from_status(d.pop("fromStatus"))

        to_status = LikenessConsentEventToStatus(d.pop("toStatus"))

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

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        created_at = d.pop("createdAt")

        likeness_consent_event = cls(
            id=id,
            consent_id=consent_id,
            from_status=from_status,
            to_status=to_status,
            actor_id=actor_id,
            reason=reason,
            created_at=created_at,
        )

        likeness_consent_event.additional_properties = d
        return likeness_consent_event

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
