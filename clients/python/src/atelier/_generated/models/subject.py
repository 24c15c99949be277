from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.subject_attestations_record import SubjectAttestationsRecord


T = TypeVar("T", bound="Subject")


@_attrs_define
class Subject:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        display_name (None | str): null once erased
        email (None | str):
        public_role (None | str):
        union_status (None | str):
        attestations (SubjectAttestationsRecord):
        erased (bool):
        erased_at (None | str):
        etag (str):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    workspace_id: UUID
    display_name: None | str
    email: None | str
    public_role: None | str
    union_status: None | str
    attestations: SubjectAttestationsRecord
    erased: bool
    erased_at: None | str
    etag: str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        display_name: None | str
        display_name = self.display_name

        email: None | str
        email = self.email

        public_role: None | str
        public_role = self.public_role

        union_status: None | str
        union_status = self.union_status

        attestations = self.attestations.to_dict()

        erased = self.erased

        erased_at: None | str
        erased_at = self.erased_at

        etag = self.etag

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "displayName": display_name,
                "email": email,
                "publicRole": public_role,
                "unionStatus": union_status,
                "attestations": attestations,
                "erased": erased,
                "erasedAt": erased_at,
                "etag": etag,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subject_attestations_record import SubjectAttestationsRecord

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspaceId"))

        def _parse_display_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        display_name = _parse_display_name(d.pop("displayName"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        def _parse_public_role(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        public_role = _parse_public_role(d.pop("publicRole"))

        def _parse_union_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        union_status = _parse_union_status(d.pop("unionStatus"))

        attestations = SubjectAttestationsRecord.from_dict(d.pop("attestations"))

        erased = d.pop("erased")

        def _parse_erased_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        erased_at = _parse_erased_at(d.pop("erasedAt"))

        etag = d.pop("etag")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        subject = cls(
            id=id,
            workspace_id=workspace_id,
            display_name=display_name,
            email=email,
            public_role=public_role,
            union_status=union_status,
            attestations=attestations,
            erased=erased,
            erased_at=erased_at,
            etag=etag,
            created_at=created_at,
            updated_at=updated_at,
        )

        subject.additional_properties = d
        return subject

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
