from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PublicationCreateRequest")


@_attrs_define
class PublicationCreateRequest:
    """
    Example:
        {'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'slug': 'acme-journal', 'name': 'Acme Journal',
            'revalidateUrl': 'https://acmehoney.example/api/revalidate', 'sectionPath': '/journal'}

    Attributes:
        workspace_id (UUID):
        slug (str):
        name (str):
        revalidate_url (str): The consumer's revalidation endpoint in its canonical form (a redirect is not followed)
        section_path (str):
    """

    workspace_id: UUID
    slug: str
    name: str
    revalidate_url: str
    section_path: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        slug = self.slug

        name = self.name

        revalidate_url = self.revalidate_url

        section_path = self.section_path

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspaceId": workspace_id,
                "slug": slug,
                "name": name,
                "revalidateUrl": revalidate_url,
                "sectionPath": section_path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspaceId"))

        slug = d.pop("slug")

        name = d.pop("name")

        revalidate_url = d.pop("revalidateUrl")

        section_path = d.pop("sectionPath")

        publication_create_request = cls(
            workspace_id=workspace_id,
            slug=slug,
            name=name,
            revalidate_url=revalidate_url,
            section_path=section_path,
        )

        publication_create_request.additional_properties = d
        return publication_create_request

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
