from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DocumentCreateRequest")


@_attrs_define
class DocumentCreateRequest:
    """
    Example:
        {'slug': 'why-city-bees-thrive', 'title': 'Why city bees thrive', 'body': '# Why city bees thrive\\n\\nRooftop
            hives find more varied forage than many farms.', 'categories': ['beekeeping']}

    Attributes:
        slug (str):
        title (str):
        body (str):
        categories (list[str] | Unset):
    """

    slug: str
    title: str
    body: str
    categories: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        title = self.title

        body = self.body

        categories: list[str] | Unset = UNSET
        if not isinstance(self.categories, Unset):
            categories = self.categories

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "title": title,
                "body": body,
            }
        )
        if categories is not UNSET:
            field_dict["categories"] = categories

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        title = d.pop("title")

        body = d.pop("body")

        categories = cast(list[str], d.pop("categories", UNSET))

        document_create_request = cls(
            slug=slug,
            title=title,
            body=body,
            categories=categories,
        )

        document_create_request.additional_properties = d
        return document_create_request

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
