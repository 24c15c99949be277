from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brand_font import BrandFont


T = TypeVar("T", bound="BrandVisual")


@_attrs_define
class BrandVisual:
    """
    Attributes:
        colors (list[str] | Unset):
        fonts (list[BrandFont] | Unset):
        logo_artifact_id (None | str | Unset): An artifact of the same workspace
    """

    colors: list[str] | Unset = UNSET
    fonts: list[BrandFont] | Unset = UNSET
    logo_artifact_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        colors: list[str] | Unset = UNSET
        if not isinstance(self.colors, Unset):
            colors = self.colors

        fonts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.fonts, Unset):
            fonts = []
            for fonts_item_data in self.fonts:
                fonts_item = fonts_item_data.to_dict()
                fonts.append(fonts_item)

        logo_artifact_id: None | str | Unset
        if isinstance(self.logo_artifact_id, Unset):
            logo_artifact_id = UNSET
        else:
            logo_artifact_id = self.logo_artifact_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if colors is not UNSET:
            field_dict["colors"] = colors
        if fonts is not UNSET:
            field_dict["fonts"] = fonts
        if logo_artifact_id is not UNSET:
            field_dict["logoArtifactId"] = logo_artifact_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brand_font import BrandFont

        d = dict(src_dict)
        colors = cast(list[str], d.pop("colors", UNSET))

        _fonts = d.pop("fonts", UNSET)
        fonts: list[BrandFont] | Unset = UNSET
        if _fonts is not UNSET:
            fonts = []
            for fonts_item_data in _fonts:
                fonts_item = BrandFont.from_dict(fonts_item_data)

                fonts.append(fonts_item)

        def _parse_logo_artifact_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        logo_artifact_id = _parse_logo_artifact_id(d.pop("logoArtifactId", UNSET))

        brand_visual = cls(
            colors=colors,
            fonts=fonts,
            logo_artifact_id=logo_artifact_id,
        )

        brand_visual.additional_properties = d
        return brand_visual

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
