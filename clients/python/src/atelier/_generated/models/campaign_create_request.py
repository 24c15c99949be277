from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.campaign_brief import CampaignBrief


T = TypeVar("T", bound="CampaignCreateRequest")


@_attrs_define
class CampaignCreateRequest:
    """
    Example:
        {'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'name': 'Spring harvest launch', 'brief': {'objective':
            'Announce the spring harvest to newsletter subscribers', 'deliverables': ['3 social images', '1 research-backed
            blog post'], 'deadline': '2027-03-15', 'notes': ''}}

    Attributes:
        project_id (UUID): The brand project
        name (str):
        brief (CampaignBrief):
    """

    project_id: UUID
    name: str
    brief: CampaignBrief
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        project_id = str(self.project_id)

        name = self.name

        brief = self.brief.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "projectId": project_id,
                "name": name,
                "brief": brief,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_brief import CampaignBrief

        d = dict(src_dict)
        project_id = UUID(d.pop("projectId"))

        name = d.pop("name")

        brief = CampaignBrief.from_dict(d.pop("brief"))

        campaign_create_request = cls(
            project_id=project_id,
            name=name,
            brief=brief,
        )

        campaign_create_request.additional_properties = d
        return campaign_create_request

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
