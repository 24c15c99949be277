from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SubjectAttestationsRecord")


@_attrs_define
class SubjectAttestationsRecord:
    """
    Attributes:
        adult (bool):
        not_political (bool):
    """

    adult: bool
    not_political: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        adult = self.adult

        not_political = self.not_political

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "adult": adult,
                "notPolitical": not_political,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        adult = d.pop("adult")

        not_political = d.pop("notPolitical")

        subject_attestations_record = cls(
            adult=adult,
            not_political=not_political,
        )

        subject_attestations_record.additional_properties = d
        return subject_attestations_record

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
