from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.publication_document_status import PublicationDocumentStatus

T = TypeVar("T", bound="DocumentTransition")


@_attrs_define
class DocumentTransition:
    """
    Attributes:
        id (str):
        publication_id (str):
        slug (str):
        title (str):
        body (str):
        categories (list[str]):
        status (PublicationDocumentStatus):
        published_at (None | str):
        created_at (str):
        updated_at (str):
        message_id (str): webhook-id of the revalidation message this change sends (msg_…)
    """

    id: str
    publication_id: str
    slug: str
    title: str
    body: str
    categories: list[str]
    status: PublicationDocumentStatus
    published_at: None | str
    created_at: str
    updated_at: str
    message_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        publication_id = self.publication_id

        slug = self.slug

        title = self.title

        body = self.body

        categories = self.categories

        status = self.status.value

        published_at: None | str
        published_at = self.published_at

        created_at = self.created_at

        updated_at = self.updated_at

        message_id = self.message_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "publicationId": publication_id,
                "slug": slug,
                "title": title,
                "body": body,
                "categories": categories,
                "status": status,
                "publishedAt": published_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "messageId": message_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        publication_id = d.pop("publicationId")

        slug = d.pop("slug")

        title = d.pop("title")

        body = d.pop("body")

        categories = cast(list[str], d.pop("categories"))

        status = PublicationDocumentStatus(d.pop("status"))

        def _parse_published_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        published_at = _parse_published_at(d.pop("publishedAt"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        message_id = d.pop("messageId")

        document_transition = cls(
            id=id,
            publication_id=publication_id,
            slug=slug,
            title=title,
            body=body,
            categories=categories,
            status=status,
            published_at=published_at,
            created_at=created_at,
            updated_at=updated_at,
            message_id=message_id,
        )

        document_transition.additional_properties = d
        return document_transition

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
