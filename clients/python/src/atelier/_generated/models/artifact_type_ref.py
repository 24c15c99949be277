from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.artifact_type_ref_artifact_class import ArtifactTypeRefArtifactClass

T = TypeVar("T", bound="ArtifactTypeRef")


@_attrs_define
class ArtifactTypeRef:
    """
    Attributes:
        artifact_class (ArtifactTypeRefArtifactClass):
        artifact_type (str):
    """

    artifact_class: ArtifactTypeRefArtifactClass
    artifact_type: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        artifact_class = self.artifact_class.value

        artifact_type = self.artifact_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "artifactClass": artifact_class,
                "artifactType": artifact_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        artifact_class = ArtifactTypeRefArtifactClass(d.pop("artifactClass"))

        artifact_type = d.pop("artifactType")

        artifact_type_ref = cls(
            artifact_class=artifact_class,
            artifact_type=artifact_type,
        )

        artifact_type_ref.additional_properties = d
        return artifact_type_ref

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
