from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.campaign_patch_request_brief import CampaignPatchRequestBrief


T = TypeVar("T", bound="CampaignPatchRequest")


@_attrs_define
class CampaignPatchRequest:
    """
    Example:
        {'brief': {'deadline': '2027-03-22'}, 'etag': '"c1d9f4a2b7"'}

    Attributes:
        name (str | Unset):
        brief (CampaignPatchRequestBrief | Unset): Fields given replace those of the brief; others stay
        etag (str | Unset): Optional: the etag you read (or If-Match); a stale one is 409 etag_mismatch
    """

    name: str | Unset = UNSET
    brief: CampaignPatchRequestBrief | Unset = UNSET
    etag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        brief: dict[str, Any] | Unset = UNSET
        if not isinstance(self.brief, Unset):
            brief = self.brief.to_dict()

        etag = self.etag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if brief is not UNSET:
            field_dict["brief"] = brief
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_patch_request_brief import CampaignPatchRequestBrief

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _brief = d.pop("brief", UNSET)
        brief: CampaignPatchRequestBrief | Unset
        if isinstance(_brief, Unset):
            brief = UNSET
        else:
            brief = CampaignPatchRequestBrief.from_dict(_brief)

        etag = d.pop("etag", UNSET)

        campaign_patch_request = cls(
            name=name,
            brief=brief,
            etag=etag,
        )

        campaign_patch_request.additional_properties = d
        return campaign_patch_request

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
