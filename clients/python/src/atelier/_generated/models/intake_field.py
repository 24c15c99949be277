from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.intake_field_artifact_class import IntakeFieldArtifactClass
from ..models.intake_field_type import IntakeFieldType
from ..types import UNSET, Unset

T = TypeVar("T", bound="IntakeField")


@_attrs_define
class IntakeField:
    """
    Attributes:
        name (str):
        type_ (IntakeFieldType):
        required (bool | Unset):
        default (Any | Unset):
        options (list[Any] | Unset):
        description (str | Unset):
        artifact_class (IntakeFieldArtifactClass | Unset):
        artifact_type (str | Unset):
    """

    name: str
    type_: IntakeFieldType
    required: bool | Unset = UNSET
    default: Any | Unset = UNSET
    options: list[Any] | Unset = UNSET
    description: str | Unset = UNSET
    artifact_class: IntakeFieldArtifactClass | Unset = UNSET
    artifact_type: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        required = self.required

        default = self.default

        options: list[Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options

        description = self.description

        artifact_class: str | Unset = UNSET
        if not isinstance(self.artifact_class, Unset):
            artifact_class = self.artifact_class.value

        artifact_type = self.artifact_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if required is not UNSET:
            field_dict["required"] = required
        if default is not UNSET:
            field_dict["default"] = default
        if options is not UNSET:
            field_dict["options"] = options
        if description is not UNSET:
            field_dict["description"] = description
        if artifact_class is not UNSET:
            field_dict["artifactClass"] = artifact_class
        if artifact_type is not UNSET:
            field_dict["artifactType"] = artifact_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = IntakeFieldType(d.pop("type"))

        required = d.pop("required", UNSET)

        default = d.pop("default", UNSET)

        options = cast(list[Any], d.pop("options", UNSET))

        description = d.pop("description", UNSET)

        _artifact_class = d.pop("artifactClass", UNSET)
        artifact_class: IntakeFieldArtifactClass | Unset
        if isinstance(_artifact_class, Unset):
            artifact_class = UNSET
        else:
            artifact_class = IntakeFieldArtifactClass(_artifact_class)

        artifact_type = d.pop("artifactType", UNSET)

        intake_field = cls(
            name=name,
            type_=type_,
            required=required,
            default=default,
            options=options,
            description=description,
            artifact_class=artifact_class,
            artifact_type=artifact_type,
        )

        intake_field.additional_properties = d
        return intake_field

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
