from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.brand_profile import BrandProfile
    from ..models.font_capture import FontCapture


T = TypeVar("T", bound="BrandSnapshot")


@_attrs_define
class BrandSnapshot:
    """
    Attributes:
        id (str): The snapshot id, which is also its knowledge artifact id
        brand_id (UUID):
        artifact_id (str):
        content_hash (str):
        profile (BrandProfile): The working copy
        font_capture (FontCapture):
        current (bool): Whether the brand's current snapshot is this one
        created_at (str):
    """

    id: str
    brand_id: UUID
    artifact_id: str
    content_hash: str
    profile: BrandProfile
    font_capture: FontCapture
    current: bool
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        brand_id = str(self.brand_id)

        artifact_id = self.artifact_id

        content_hash = self.content_hash

        profile = self.profile.to_dict()

        font_capture = self.font_capture.to_dict()

        current = self.current

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "brandId": brand_id,
                "artifactId": artifact_id,
                "contentHash": content_hash,
                "profile": profile,
                "fontCapture": font_capture,
                "current": current,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brand_profile import BrandProfile
        from ..models.font_capture import FontCapture

        d = dict(src_dict)
        id = d.pop("id")

        brand_id = UUID(d.pop("brandId"))

        artifact_id = d.pop("artifactId")

        content_hash = d.pop("contentHash")

        profile = BrandProfile.from_dict(d.pop("profile"))

        font_capture = FontCapture.from_dict(d.pop("fontCapture"))

        current = d.pop("current")

        created_at = d.pop("createdAt")

        brand_snapshot = cls(
            id=id,
            brand_id=brand_id,
            artifact_id=artifact_id,
            content_hash=content_hash,
            profile=profile,
            font_capture=font_capture,
            current=current,
            created_at=created_at,
        )

        brand_snapshot.additional_properties = d
        return brand_snapshot

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
