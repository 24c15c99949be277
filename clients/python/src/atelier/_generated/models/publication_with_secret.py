from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery_health import DeliveryHealth


T = TypeVar("T", bound="PublicationWithSecret")


@_attrs_define
class PublicationWithSecret:
    """
    Attributes:
        id (str):
        workspace_id (UUID):
        slug (str): Stable id sent as `publication` in every webhook body; never changes
        name (str):
        revalidate_url (str):
        section_path (str):
        secret_rotated_at (str):
        delivery_health (DeliveryHealth):
        created_at (str):
        updated_at (str):
        secret (str): whsec_ + base64 of 32 random bytes (Standard Webhooks). Shown only in this response; store it as
            REVALIDATE_SECRET_<SLUG>
    """

    id: str
    workspace_id: UUID
    slug: str
    name: str
    revalidate_url: str
    section_path: str
    secret_rotated_at: str
    delivery_health: DeliveryHealth
    created_at: str
    updated_at: str
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        workspace_id = str(self.workspace_id)

        slug = self.slug

        name = self.name

        revalidate_url = self.revalidate_url

        section_path = self.section_path

        secret_rotated_at = self.secret_rotated_at

        delivery_health = self.delivery_health.to_dict()

        created_at = self.created_at

        updated_at = self.updated_at

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "slug": slug,
                "name": name,
                "revalidateUrl": revalidate_url,
                "sectionPath": section_path,
                "secretRotatedAt": secret_rotated_at,
                "deliveryHealth": delivery_health,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_health import DeliveryHealth

        d = dict(src_dict)
        id = d.pop("id")

        workspace_id = UUID(d.pop("workspaceId"))

        slug = d.pop("slug")

        name = d.pop("name")

        revalidate_url = d.pop("revalidateUrl")

        section_path = d.pop("sectionPath")

        secret_rotated_at = d.pop("secretRotatedAt")

        delivery_health = DeliveryHealth.from_dict(d.pop("deliveryHealth"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        secret = d.pop("secret")

        publication_with_secret = cls(
            id=id,
            workspace_id=workspace_id,
            slug=slug,
            name=name,
            revalidate_url=revalidate_url,
            section_path=section_path,
            secret_rotated_at=secret_rotated_at,
            delivery_health=delivery_health,
            created_at=created_at,
            updated_at=updated_at,
            secret=secret,
        )

        publication_with_secret.additional_properties = d
        return publication_with_secret

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
