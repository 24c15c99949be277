from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ops_request_view_state_type_1 import OpsRequestViewStateType1
from ..models.ops_request_view_state_type_2_type_1 import OpsRequestViewStateType2Type1
from ..models.ops_request_view_state_type_3_type_1 import OpsRequestViewStateType3Type1

if TYPE_CHECKING:
    from ..models.campaign import Campaign
    from ..models.ops_request_entry import OpsRequestEntry


T = TypeVar("T", bound="OpsRequestView")


@_attrs_define
class OpsRequestView:
    """
    Attributes:
        campaign (Campaign):
        state (None | OpsRequestViewStateType1 | OpsRequestViewStateType2Type1 | OpsRequestViewStateType3Type1):
        entries (list[OpsRequestEntry]): Every move and note, internal ones included, oldest first
    """

    campaign: Campaign
    state: (
        None
        | OpsRequestViewStateType1
        | OpsRequestViewStateType2Type1
        | OpsRequestViewStateType3Type1
    )
    entries: list[OpsRequestEntry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        campaign = self.campaign.to_dict()

        state: None | str
        if (
            isinstance(self.state, OpsRequestViewStateType1)
            or isinstance(self.state, OpsRequestViewStateType2Type1)
            or isinstance(self.state, OpsRequestViewStateType3Type1)
        ):
            state = self.state.value
        else:
            state = self.state

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "campaign": campaign,
                "state": state,
                "entries": entries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign import Campaign
        from ..models.ops_request_entry import OpsRequestEntry

        d = dict(src_dict)
        campaign = Campaign.from_dict(d.pop("campaign"))

        def _parse_state(
            data: object,
        ) -> (
            None
            | OpsRequestViewStateType1
            | OpsRequestViewStateType2Type1
            | OpsRequestViewStateType3Type1
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_1 = OpsRequestViewStateType1(data)

                return state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_2_type_1 = OpsRequestViewStateType2Type1(data)

                return state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_3_type_1 = OpsRequestViewStateType3Type1(data)

                return state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | OpsRequestViewStateType1
                | OpsRequestViewStateType2Type1
                | OpsRequestViewStateType3Type1,
                data,
            )

        state = _parse_state(d.pop("state"))

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = OpsRequestEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        ops_request_view = cls(
            campaign=campaign,
            state=state,
            entries=entries,
        )

        ops_request_view.additional_properties = d
        return ops_request_view

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
