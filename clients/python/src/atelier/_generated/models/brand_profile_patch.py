from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brand_profile_patch_visual import BrandProfilePatchVisual
    from ..models.brand_profile_patch_voice import BrandProfilePatchVoice


T = TypeVar("T", bound="BrandProfilePatch")


@_attrs_define
class BrandProfilePatch:
    """
    Example:
        {'voice': {'tone': 'warm, plain-spoken and a little playful'}, 'visual': {'colors': ['#F2A900', '#1B1B1B',
            '#FFFFFF']}, 'etag': '"c1d9f4a2b7"'}

    Attributes:
        name (str | Unset):
        voice (BrandProfilePatchVoice | Unset):
        visual (BrandProfilePatchVisual | Unset):
        audience (str | Unset):
        guidelines (str | Unset):
        etag (str | Unset): Optional: the etag you read (or If-Match); a stale one is 409 etag_mismatch
    """

    name: str | Unset = UNSET
    voice: BrandProfilePatchVoice | Unset = UNSET
    visual: BrandProfilePatchVisual | Unset = UNSET
    audience: str | Unset = UNSET
    guidelines: str | Unset = UNSET
    etag: str | Unset = UNSET
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

        etag = self.etag

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
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brand_profile_patch_visual import BrandProfilePatchVisual
        from ..models.brand_profile_patch_voice import BrandProfilePatchVoice

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _voice = d.pop("voice", UNSET)
        voice: BrandProfilePatchVoice | Unset
        if isinstance(_voice, Unset):
            voice = UNSET
        else:
            voice = BrandProfilePatchVoice.from_dict(_voice)

        _visual = d.pop("visual", UNSET)
        visual: BrandProfilePatchVisual | Unset
        if isinstance(_visual, Unset):
            visual = UNSET
        else:
            visual = BrandProfilePatchVisual.from_dict(_visual)

        audience = d.pop("audience", UNSET)

        guidelines = d.pop("guidelines", UNSET)

        etag = d.pop("etag", UNSET)

        brand_profile_patch = cls(
            name=name,
            voice=voice,
            visual=visual,
            audience=audience,
            guidelines=guidelines,
            etag=etag,
        )

        brand_profile_patch.additional_properties = d
        return brand_profile_patch

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
