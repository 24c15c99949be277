from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SubjectUpdateRequest")


@_attrs_define
class SubjectUpdateRequest:
    """
    Example:
        {'publicRole': 'Lead brand ambassador', 'etag': '"c1d9f4a2b7"'}

    Attributes:
        display_name (str | Unset):
        email (None | str | Unset):
        public_role (None | str | Unset):
        union_status (None | str | Unset):
        etag (str | Unset): The etag you read; or send it as If-Match
    """

    display_name: str | Unset = UNSET
    email: None | str | Unset = UNSET
    public_role: None | str | Unset = UNSET
    union_status: None | str | Unset = UNSET
    etag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        display_name = self.display_name

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        public_role: None | str | Unset
        if isinstance(self.public_role, Unset):
            public_role = UNSET
        else:
            public_role = self.public_role

        union_status: None | str | Unset
        if isinstance(self.union_status, Unset):
            union_status = UNSET
        else:
            union_status = self.union_status

        etag = self.etag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if display_name is not UNSET:
            field_dict["displayName"] = display_name
        if email is not UNSET:
            field_dict["email"] = email
        if public_role is not UNSET:
            field_dict["publicRole"] = public_role
        if union_status is not UNSET:
            field_dict["unionStatus"] = union_status
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        display_name = d.pop("displayName", UNSET)

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_public_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        public_role = _parse_public_role(d.pop("publicRole", UNSET))

        def _parse_union_status(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        union_status = _parse_union_status(d.pop("unionStatus", UNSET))

        etag = d.pop("etag", UNSET)

        subject_update_request = cls(
            display_name=display_name,
            email=email,
            public_role=public_role,
            union_status=union_status,
            etag=etag,
        )

        subject_update_request.additional_properties = d
        return subject_update_request

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
