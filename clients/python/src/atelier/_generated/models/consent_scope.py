from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConsentScope")


@_attrs_define
class ConsentScope:
    """What the consent covers; `*` in a list covers every value

    Attributes:
        uses (list[str]):
        media (list[str]):
        channels (list[str]):
        territories (list[str]):
    """

    uses: list[str]
    media: list[str]
    channels: list[str]
    territories: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uses = self.uses

        media = self.media

        channels = self.channels

        territories = self.territories

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uses": uses,
                "media": media,
                "channels": channels,
                "territories": territories,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        uses = cast(list[str], d.pop("uses"))

        media = cast(list[str], d.pop("media"))

        channels = cast(list[str], d.pop("channels"))

        territories = cast(list[str], d.pop("territories"))

        consent_scope = cls(
            uses=uses,
            media=media,
            channels=channels,
            territories=territories,
        )

        consent_scope.additional_properties = d
        return consent_scope

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
