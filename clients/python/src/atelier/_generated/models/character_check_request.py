from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_check_request_media import CharacterCheckRequestMedia
from ..types import UNSET, Unset

T = TypeVar("T", bound="CharacterCheckRequest")


@_attrs_define
class CharacterCheckRequest:
    """
    Example:
        {'media': 'image', 'use': 'advertising', 'channel': 'social', 'territory': 'US', 'date': '2027-03-01'}

    Attributes:
        media (CharacterCheckRequestMedia):
        use (str | Unset):
        channel (str | Unset):
        territory (str | Unset):
        advertiser (str | Unset):
        provider (str | Unset):
        date (str | Unset):
        version (int | Unset):
    """

    media: CharacterCheckRequestMedia
    use: str | Unset = UNSET
    channel: str | Unset = UNSET
    territory: str | Unset = UNSET
    advertiser: str | Unset = UNSET
    provider: str | Unset = UNSET
    date: str | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        media = self.media.value

        use = self.use

        channel = self.channel

        territory = self.territory

        advertiser = self.advertiser

        provider = self.provider

        date = self.date

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "media": media,
            }
        )
        if use is not UNSET:
            field_dict["use"] = use
        if channel is not UNSET:
            field_dict["channel"] = channel
        if territory is not UNSET:
            field_dict["territory"] = territory
        if advertiser is not UNSET:
            field_dict["advertiser"] = advertiser
        if provider is not UNSET:
            field_dict["provider"] = provider
        if date is not UNSET:
            field_dict["date"] = date
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        media = CharacterCheckRequestMedia(d.pop("media"))

        use = d.pop("use", UNSET)

        channel = d.pop("channel", UNSET)

        territory = d.pop("territory", UNSET)

        advertiser = d.pop("advertiser", UNSET)

        provider = d.pop("provider", UNSET)

        date = d.pop("date", UNSET)

        version = d.pop("version", UNSET)

        character_check_request = cls(
            media=media,
            use=use,
            channel=channel,
            territory=territory,
            advertiser=advertiser,
            provider=provider,
            date=date,
            version=version,
        )

        character_check_request.additional_properties = d
        return character_check_request

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
