from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PublicationUpdateRequest")


@_attrs_define
class PublicationUpdateRequest:
    """
    Example:
        {'revalidateUrl': 'https://www.acmehoney.example/api/revalidate/'}

    Attributes:
        name (str | Unset):
        revalidate_url (str | Unset):
        section_path (str | Unset):
    """

    name: str | Unset = UNSET
    revalidate_url: str | Unset = UNSET
    section_path: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        revalidate_url = self.revalidate_url

        section_path = self.section_path

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if revalidate_url is not UNSET:
            field_dict["revalidateUrl"] = revalidate_url
        if section_path is not UNSET:
            field_dict["sectionPath"] = section_path

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        revalidate_url = d.pop("revalidateUrl", UNSET)

        section_path = d.pop("sectionPath", UNSET)

        publication_update_request = cls(
            name=name,
            revalidate_url=revalidate_url,
            section_path=section_path,
        )

        publication_update_request.additional_properties = d
        return publication_update_request

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
