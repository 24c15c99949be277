from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_reference_create_request_role import (
    CharacterReferenceCreateRequestRole,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CharacterReferenceCreateRequest")


@_attrs_define
class CharacterReferenceCreateRequest:
    """
    Example:
        {'role': 'portrait', 'artifactId': 'artifact-5c1e9a7d', 'etag': '"c1d9f4a2b7"'}

    Attributes:
        role (CharacterReferenceCreateRequestRole):
        artifact_id (str):
        etag (str | Unset):
    """

    role: CharacterReferenceCreateRequestRole
    artifact_id: str
    etag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        artifact_id = self.artifact_id

        etag = self.etag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "artifactId": artifact_id,
            }
        )
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = CharacterReferenceCreateRequestRole(d.pop("role"))

        artifact_id = d.pop("artifactId")

        etag = d.pop("etag", UNSET)

        character_reference_create_request = cls(
            role=role,
            artifact_id=artifact_id,
            etag=etag,
        )

        character_reference_create_request.additional_properties = d
        return character_reference_create_request

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
