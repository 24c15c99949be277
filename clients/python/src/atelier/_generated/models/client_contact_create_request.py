from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClientContactCreateRequest")


@_attrs_define
class ClientContactCreateRequest:
    """
    Example:
        {'name': 'Jordan Price', 'email': 'jordan@acmehoney.example', 'role': 'Marketing lead', 'approvesWork': True}

    Attributes:
        name (str):
        email (str):
        role (str | Unset):
        approves_work (bool | Unset): Whether this person approves work Default: False.
    """

    name: str
    email: str
    role: str | Unset = UNSET
    approves_work: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        email = self.email

        role = self.role

        approves_work = self.approves_work

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "email": email,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role
        if approves_work is not UNSET:
            field_dict["approvesWork"] = approves_work

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        email = d.pop("email")

        role = d.pop("role", UNSET)

        approves_work = d.pop("approvesWork", UNSET)

        client_contact_create_request = cls(
            name=name,
            email=email,
            role=role,
            approves_work=approves_work,
        )

        client_contact_create_request.additional_properties = d
        return client_contact_create_request

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
