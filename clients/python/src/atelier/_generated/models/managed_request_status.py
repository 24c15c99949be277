from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.managed_request_status_campaign_status import (
    ManagedRequestStatusCampaignStatus,
)
from ..models.managed_request_status_state_type_1 import ManagedRequestStatusStateType1
from ..models.managed_request_status_state_type_2_type_1 import (
    ManagedRequestStatusStateType2Type1,
)
from ..models.managed_request_status_state_type_3_type_1 import (
    ManagedRequestStatusStateType3Type1,
)

if TYPE_CHECKING:
    from ..models.managed_request_note import ManagedRequestNote


T = TypeVar("T", bound="ManagedRequestStatus")


@_attrs_define
class ManagedRequestStatus:
    """
    Attributes:
        campaign_id (str):
        campaign_status (ManagedRequestStatusCampaignStatus):
        state (ManagedRequestStatusStateType1 | ManagedRequestStatusStateType2Type1 |
            ManagedRequestStatusStateType3Type1 | None): null while the campaign is a draft (not yet submitted)
        notes (list[ManagedRequestNote]): Operator notes addressed to the campaign, oldest first; internal notes never
            appear
        updated_at (str):
    """

    campaign_id: str
    campaign_status: ManagedRequestStatusCampaignStatus
    state: (
        ManagedRequestStatusStateType1
        | ManagedRequestStatusStateType2Type1
        | ManagedRequestStatusStateType3Type1
        | None
    )
    notes: list[ManagedRequestNote]
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        campaign_id = self.campaign_id

        campaign_status = self.campaign_status.value

        state: None | str
        if (
            isinstance(self.state, ManagedRequestStatusStateType1)
            or isinstance(self.state, ManagedRequestStatusStateType2Type1)
            or isinstance(self.state, ManagedRequestStatusStateType3Type1)
        ):
            state = self.state.value
        else:
            state = self.state

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "campaignId": campaign_id,
                "campaignStatus": campaign_status,
                "state": state,
                "notes": notes,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.managed_request_note import ManagedRequestNote

        d = dict(src_dict)
        campaign_id = d.pop("campaignId")

        campaign_status = ManagedRequestStatusCampaignStatus(d.pop("campaignStatus"))

        def _parse_state(
            data: object,
        ) -> (
            ManagedRequestStatusStateType1
            | ManagedRequestStatusStateType2Type1
            | ManagedRequestStatusStateType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_1 = ManagedRequestStatusStateType1(data)

                return state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_2_type_1 = ManagedRequestStatusStateType2Type1(data)

                return state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_3_type_1 = ManagedRequestStatusStateType3Type1(data)

                return state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                ManagedRequestStatusStateType1
                | ManagedRequestStatusStateType2Type1
                | ManagedRequestStatusStateType3Type1
                | None,
                data,
            )

        state = _parse_state(d.pop("state"))

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = ManagedRequestNote.from_dict(notes_item_data)

            notes.append(notes_item)

        updated_at = d.pop("updatedAt")

        managed_request_status = cls(
            campaign_id=campaign_id,
            campaign_status=campaign_status,
            state=state,
            notes=notes,
            updated_at=updated_at,
        )

        managed_request_status.additional_properties = d
        return managed_request_status

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
