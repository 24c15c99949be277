from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_binding_asset_kind import CharacterBindingAssetKind
from ..models.character_binding_provider_consent_status import (
    CharacterBindingProviderConsentStatus,
)

T = TypeVar("T", bound="CharacterBinding")


@_attrs_define
class CharacterBinding:
    """
    Attributes:
        id (UUID):
        character_id (str):
        version_number (int):
        provider (str):
        asset_kind (CharacterBindingAssetKind):
        asset_id (str):
        photo_based (bool):
        provider_consent_status (CharacterBindingProviderConsentStatus):
        disabled (bool):
        etag (str):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    character_id: str
    version_number: int
    provider: str
    asset_kind: CharacterBindingAssetKind
    asset_id: str
    photo_based: bool
    provider_consent_status: CharacterBindingProviderConsentStatus
    disabled: bool
    etag: str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        character_id = self.character_id

        version_number = self.version_number

        provider = self.provider

        asset_kind = self.asset_kind.value

        asset_id = self.asset_id

        photo_based = self.photo_based

        provider_consent_status = self.provider_consent_status.value

        disabled = self.disabled

        etag = self.etag

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "characterId": character_id,
                "versionNumber": version_number,
                "provider": provider,
                "assetKind": asset_kind,
                "assetId": asset_id,
                "photoBased": photo_based,
                "providerConsentStatus": provider_consent_status,
                "disabled": disabled,
                "etag": etag,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        character_id = d.pop("characterId")

        version_number = d.pop("versionNumber")

        provider = d.pop("provider")

        asset_kind = CharacterBindingAssetKind(d.pop("assetKind"))

        asset_id = d.pop("assetId")

        photo_based = d.pop("photoBased")

        provider_consent_status = CharacterBindingProviderConsentStatus(
            d.pop("providerConsentStatus")
        )

        disabled = d.pop("disabled")

        etag = d.pop("etag")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        character_binding = cls(
            id=id,
            character_id=character_id,
            version_number=version_number,
            provider=provider,
            asset_kind=asset_kind,
            asset_id=asset_id,
            photo_based=photo_based,
            provider_consent_status=provider_consent_status,
            disabled=disabled,
            etag=etag,
            created_at=created_at,
            updated_at=updated_at,
        )

        character_binding.additional_properties = d
        return character_binding

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
