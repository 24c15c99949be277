from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brand_visual import BrandVisual
    from ..models.brand_voice import BrandVoice


T = TypeVar("T", bound="BrandProfile")


@_attrs_define
class BrandProfile:
    """The working copy

    Attributes:
        name (str):
        voice (BrandVoice):
        visual (BrandVisual):
        audience (str | Unset):  Default: ''.
        guidelines (str | Unset):  Default: ''.
    """

    name: str
    voice: BrandVoice
    visual: BrandVisual
    audience: str | Unset = ""
    guidelines: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        voice = self.voice.to_dict()

        visual = self.visual.to_dict()

        audience = self.audience

        guidelines = self.guidelines

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "voice": voice,
                "visual": visual,
            }
        )
        if audience is not UNSET:
            field_dict["audience"] = audience
        if guidelines is not UNSET:
            field_dict["guidelines"] = guidelines

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brand_visual import BrandVisual
        from ..models.brand_voice import BrandVoice

        d = dict(src_dict)
        name = d.pop("name")

        voice = BrandVoice.from_dict(d.pop("voice"))

        visual = BrandVisual.from_dict(d.pop("visual"))

        audience = d.pop("audience", UNSET)

        guidelines = d.pop("guidelines", UNSET)

        brand_profile = cls(
            name=name,
            voice=voice,
            visual=visual,
            audience=audience,
            guidelines=guidelines,
        )

        brand_profile.additional_properties = d
        return brand_profile

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
