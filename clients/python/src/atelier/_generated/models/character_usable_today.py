from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CharacterUsableToday")


@_attrs_define
class CharacterUsableToday:
    """The gate for an image use today, naming no provider

    Attributes:
        usable (bool):
        reasons (list[str]):
        version (int | None):
    """

    usable: bool
    reasons: list[str]
    version: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        usable = self.usable

        reasons = self.reasons

        version: int | None
        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "usable": usable,
                "reasons": reasons,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        usable = d.pop("usable")

        reasons = cast(list[str], d.pop("reasons"))

        def _parse_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        version = _parse_version(d.pop("version"))

        character_usable_today = cls(
            usable=usable,
            reasons=reasons,
            version=version,
        )

        character_usable_today.additional_properties = d
        return character_usable_today

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
