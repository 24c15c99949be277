from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brand_profile_input import BrandProfileInput


T = TypeVar("T", bound="BrandCreateRequest")


@_attrs_define
class BrandCreateRequest:
    """
    Example:
        {'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'name': 'Acme Honey', 'description': 'Raw honey from
            city rooftops', 'profile': {'voice': {'tone': 'warm and plain-spoken', 'keywords': ['local', 'raw',
            'seasonal']}, 'visual': {'colors': ['#F2A900', '#1B1B1B'], 'fonts': [], 'logoArtifactId': None}, 'audience':
            'City dwellers who shop at farmers markets', 'guidelines': 'Never call the honey organic.'}}

    Attributes:
        workspace_id (UUID):
        name (str):
        description (None | str | Unset):
        profile (BrandProfileInput | Unset):
    """

    workspace_id: UUID
    name: str
    description: None | str | Unset = UNSET
    profile: BrandProfileInput | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        profile: dict[str, Any] | Unset = UNSET
        if not isinstance(self.profile, Unset):
            profile = self.profile.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspaceId": workspace_id,
                "name": name,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if profile is not UNSET:
            field_dict["profile"] = profile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brand_profile_input import BrandProfileInput

        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspaceId"))

        name = d.pop("name")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _profile = d.pop("profile", UNSET)
        profile: BrandProfileInput | Unset
        if isinstance(_profile, Unset):
            profile = UNSET
        else:
            profile = BrandProfileInput.from_dict(_profile)

        brand_create_request = cls(
            workspace_id=workspace_id,
            name=name,
            description=description,
            profile=profile,
        )

        brand_create_request.additional_properties = d
        return brand_create_request

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
