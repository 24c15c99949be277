from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.character_reference_role import CharacterReferenceRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="CharacterReference")


@_attrs_define
class CharacterReference:
    """
    Attributes:
        id (UUID):
        role (CharacterReferenceRole):
        artifact_id (str):
        created_at (str | Unset):
    """

    id: UUID
    role: CharacterReferenceRole
    artifact_id: str
    created_at: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        role = self.role.value

        artifact_id = self.artifact_id

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "role": role,
                "artifactId": artifact_id,
            }
        )
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        role = CharacterReferenceRole(d.pop("role"))

        artifact_id = d.pop("artifactId")

        created_at = d.pop("createdAt", UNSET)

        character_reference = cls(
            id=id,
            role=role,
            artifact_id=artifact_id,
            created_at=created_at,
        )

        character_reference.additional_properties = d
        return character_reference

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
