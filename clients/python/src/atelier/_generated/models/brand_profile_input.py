from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brand_visual import BrandVisual
    from ..models.brand_voice import BrandVoice


T = TypeVar("T", bound="BrandProfileInput")


@_attrs_define
class BrandProfileInput:
    """
    Attributes:
        name (str | Unset):
        voice (BrandVoice | Unset):
        visual (BrandVisual | Unset):
        audience (str | Unset):  Default: ''.
        guidelines (str | Unset):  Default: ''.
    """

    name: str | Unset = UNSET
    voice: BrandVoice | Unset = UNSET
    visual: BrandVisual | Unset = UNSET
    audience: str | Unset = ""
    guidelines: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        voice: dict[str, Any] | Unset = UNSET
        if not isinstance(self.voice, Unset):
            voice = self.voice.to_dict()

        visual: dict[str, Any] | Unset = UNSET
        if not isinstance(self.visual, Unset):
            visual = self.visual.to_dict()

        audience = self.audience

        guidelines = self.guidelines

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if voice is not UNSET:
            field_dict["voice"] = voice
        if visual is not UNSET:
            field_dict["visual"] = visual
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
        name = d.pop("name", UNSET)

        _voice = d.pop("voice", UNSET)
        voice: BrandVoice | Unset
        if isinstance(_voice, Unset):
            voice = UNSET
        else:
            voice = BrandVoice.from_dict(_voice)

        _visual = d.pop("visual", UNSET)
        visual: BrandVisual | Unset
        if isinstance(_visual, Unset):
            visual = UNSET
        else:
            visual = BrandVisual.from_dict(_visual)

        audience = d.pop("audience", UNSET)

        guidelines = d.pop("guidelines", UNSET)

        brand_profile_input = cls(
            name=name,
            voice=voice,
            visual=visual,
            audience=audience,
            guidelines=guidelines,
        )

        brand_profile_input.additional_properties = d
        return brand_profile_input

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
