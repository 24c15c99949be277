from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PublicArticle")


@_attrs_define
class PublicArticle:
    """
    Attributes:
        slug (str):
        title (str):
        body (str):
        categories (list[str]):
        published_at (str):
    """

    slug: str
    title: str
    body: str
    categories: list[str]
    published_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        body = self.body

        categories = self.categories

        published_at = self.published_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "body": body,
                "categories": categories,
                "publishedAt": published_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        body = d.pop("body")

        categories = cast(list[str], d.pop("categories"))

        published_at = d.pop("publishedAt")

        public_article = cls(
            slug=slug,
            title=title,
            body=body,
            categories=categories,
            published_at=published_at,
        )

        public_article.additional_properties = d
        return public_article

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
