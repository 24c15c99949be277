from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subject_attestations import SubjectAttestations


T = TypeVar("T", bound="SubjectCreateRequest")


@_attrs_define
class SubjectCreateRequest:
    """
    Example:
        {'displayName': 'Maya Chen', 'email': 'maya.chen@talent.example', 'publicRole': 'Brand ambassador',
            'attestations': {'adult': True, 'notPolitical': True}}

    Attributes:
        display_name (str):
        attestations (SubjectAttestations):
        email (str | Unset):
        public_role (str | Unset):
        union_status (str | Unset):
    """

    display_name: str
    attestations: SubjectAttestations
    email: str | Unset = UNSET
    public_role: str | Unset = UNSET
    union_status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        display_name = self.display_name

        attestations = self.attestations.to_dict()

        email = self.email

        public_role = self.public_role

        union_status = self.union_status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "displayName": display_name,
                "attestations": attestations,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if public_role is not UNSET:
            field_dict["publicRole"] = public_role
        if union_status is not UNSET:
            field_dict["unionStatus"] = union_status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subject_attestations import SubjectAttestations

        d = dict(src_dict)
        display_name = d.pop("displayName")

        attestations = SubjectAttestations.from_dict(d.pop("attestations"))

        email = d.pop("email", UNSET)

        public_role = d.pop("publicRole", UNSET)

        union_status = d.pop("unionStatus", UNSET)

        subject_create_request = cls(
            display_name=display_name,
            attestations=attestations,
            email=email,
            public_role=public_role,
            union_status=union_status,
        )

        subject_create_request.additional_properties = d
        return subject_create_request

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
