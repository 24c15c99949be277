from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_binding_update_request_provider_consent_status import (
    CharacterBindingUpdateRequestProviderConsentStatus,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CharacterBindingUpdateRequest")


@_attrs_define
class CharacterBindingUpdateRequest:
    """
    Example:
        {'providerConsentStatus': 'refused', 'etag': '"c1d9f4a2b7"'}

    Attributes:
        provider_consent_status (CharacterBindingUpdateRequestProviderConsentStatus | Unset):
        disabled (bool | Unset):
        etag (str | Unset):
    """

    provider_consent_status: (
        CharacterBindingUpdateRequestProviderConsentStatus | Unset
    ) = UNSET
    disabled: bool | Unset = UNSET
    etag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        provider_consent_status: str | Unset = UNSET
        if not isinstance(self.provider_consent_status, Unset):
            provider_consent_status = self.provider_consent_status.value

        disabled = self.disabled

        etag = self.etag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if provider_consent_status is not UNSET:
            field_dict["providerConsentStatus"] = provider_consent_status
        if disabled is not UNSET:
            field_dict["disabled"] = disabled
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _provider_consent_status = d.pop("providerConsentStatus", UNSET)
        provider_consent_status: (
            CharacterBindingUpdateRequestProviderConsentStatus | Unset
        )
        if isinstance(_provider_consent_status, Unset):
            provider_consent_status = UNSET
        else:
            provider_consent_status = (
                CharacterBindingUpdateRequestProviderConsentStatus(
                    _provider_consent_status
                )
            )

        disabled = d.pop("disabled", UNSET)

        etag = d.pop("etag", UNSET)

        character_binding_update_request = cls(
            provider_consent_status=provider_consent_status,
            disabled=disabled,
            etag=etag,
        )

        character_binding_update_request.additional_properties = d
        return character_binding_update_request

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
