from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.likeness_consent_evidence_kind import LikenessConsentEvidenceKind
from ..models.likeness_consent_grantor import LikenessConsentGrantor
from ..models.likeness_consent_status import LikenessConsentStatus

if TYPE_CHECKING:
    from ..models.consent_scope import ConsentScope


T = TypeVar("T", bound="LikenessConsent")


@_attrs_define
class LikenessConsent:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        subject_id (UUID):
        status (LikenessConsentStatus):
        grantor (LikenessConsentGrantor):
        covers_likeness (bool):
        covers_voice (bool):
        scope (ConsentScope): What the consent covers; `*` in a list covers every value
        starts_on (str):
        ends_on (str):
        evidence_kind (LikenessConsentEvidenceKind):
        evidence_sha_256 (str):
        etag (str):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    workspace_id: UUID
    subject_id: UUID
    status: LikenessConsentStatus
    grantor: LikenessConsentGrantor
    covers_likeness: bool
    covers_voice: bool
    scope: ConsentScope
    starts_on: str
    ends_on: str
    evidence_kind: LikenessConsentEvidenceKind
    evidence_sha_256: str
    etag: str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        subject_id = str(self.subject_id)

        status = self.status.value

        grantor = self.grantor.value

        covers_likeness = self.covers_likeness

        covers_voice = self.covers_voice

        scope = self.scope.to_dict()

        starts_on = self.starts_on

        ends_on = self.ends_on

        evidence_kind = self.evidence_kind.value

        evidence_sha_256 = self.evidence_sha_256

        etag = self.etag

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "subjectId": subject_id,
                "status": status,
                "grantor": grantor,
                "coversLikeness": covers_likeness,
                "coversVoice": covers_voice,
                "scope": scope,
                "startsOn": starts_on,
                "endsOn": ends_on,
                "evidenceKind": evidence_kind,
                "evidenceSha256": evidence_sha_256,
                "etag": etag,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.consent_scope import ConsentScope

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspaceId"))

        subject_id = UUID(d.pop("subjectId"))

        status = LikenessConsentStatus(d.pop("status"))

        grantor = LikenessConsentGrantor(d.pop("grantor"))

        covers_likeness = d.pop("coversLikeness")

        covers_voice = d.pop("coversVoice")

        scope = ConsentScope.from_dict(d.pop("scope"))

        starts_on = d.pop("startsOn")

        ends_on = d.pop("endsOn")

        evidence_kind = LikenessConsentEvidenceKind(d.pop("evidenceKind"))

        evidence_sha_256 = d.pop("evidenceSha256")

        etag = d.pop("etag")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        likeness_consent = cls(
            id=id,
            workspace_id=workspace_id,
            subject_id=subject_id,
            status=status,
            grantor=grantor,
            covers_likeness=covers_likeness,
            covers_voice=covers_voice,
            scope=scope,
            starts_on=starts_on,
            ends_on=ends_on,
            evidence_kind=evidence_kind,
            evidence_sha_256=evidence_sha_256,
            etag=etag,
            created_at=created_at,
            updated_at=updated_at,
        )

        likeness_consent.additional_properties = d
        return likeness_consent

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
