from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CharacterVersionCreateRequest")


@_attrs_define
class CharacterVersionCreateRequest:
    """
    Example:
        {'note': 'First approved look'}

    Attributes:
        subject_id (UUID | Unset): The depicted person; required for the first likeness version, and the same person
            afterwards
        note (str | Unset):
    """

    subject_id: UUID | Unset = UNSET
    note: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subject_id: str | Unset = UNSET
        if not isinstance(self.subject_id, Unset):
            subject_id = str(self.subject_id)

        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if subject_id is not UNSET:
            field_dict["subjectId"] = subject_id
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _subject_id = d.pop("subjectId", UNSET)
        subject_id: UUID | Unset
        if isinstance(_subject_id, Unset):
            subject_id = UNSET
        else:
            subject_id = UUID(_subject_id)

        note = d.pop("note", UNSET)

        character_version_create_request = cls(
            subject_id=subject_id,
            note=note,
        )

        character_version_create_request.additional_properties = d
        return character_version_create_request

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
