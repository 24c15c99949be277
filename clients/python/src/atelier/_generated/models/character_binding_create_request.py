from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_binding_create_request_asset_kind import (
    CharacterBindingCreateRequestAssetKind,
)
from ..models.character_binding_create_request_provider_consent_status import (
    CharacterBindingCreateRequestProviderConsentStatus,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CharacterBindingCreateRequest")


@_attrs_define
class CharacterBindingCreateRequest:
    """
    Example:
        {'provider': 'elevenlabs', 'assetKind': 'voice', 'assetId': 'voice_21m00Tcm4TlvDq8ikWAM',
            'providerConsentStatus': 'accepted'}

    Attributes:
        provider (str):
        asset_kind (CharacterBindingCreateRequestAssetKind):
        asset_id (str):
        provider_consent_status (CharacterBindingCreateRequestProviderConsentStatus):
        photo_based (bool | Unset): A copy made from photos; only such a copy may have providerConsentStatus
            not_required Default: False.
    """

    provider: str
    asset_kind: CharacterBindingCreateRequestAssetKind
    asset_id: str
    provider_consent_status: CharacterBindingCreateRequestProviderConsentStatus
    photo_based: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        asset_kind = self.asset_kind.value

        asset_id = self.asset_id

        provider_consent_status = self.provider_consent_status.value

        photo_based = self.photo_based

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "provider": provider,
                "assetKind": asset_kind,
                "assetId": asset_id,
                "providerConsentStatus": provider_consent_status,
            }
        )
        if photo_based is not UNSET:
            field_dict["photoBased"] = photo_based

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = d.pop("provider")

        asset_kind = CharacterBindingCreateRequestAssetKind(d.pop("assetKind"))

        asset_id = d.pop("assetId")

        provider_consent_status = CharacterBindingCreateRequestProviderConsentStatus(
            d.pop("providerConsentStatus")
        )

        photo_based = d.pop("photoBased", UNSET)

        character_binding_create_request = cls(
            provider=provider,
            asset_kind=asset_kind,
            asset_id=asset_id,
            provider_consent_status=provider_consent_status,
            photo_based=photo_based,
        )

        character_binding_create_request.additional_properties = d
        return character_binding_create_request

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
