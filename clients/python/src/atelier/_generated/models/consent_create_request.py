from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.consent_create_request_evidence_kind import (
    ConsentCreateRequestEvidenceKind,
)
from ..models.consent_create_request_grantor import ConsentCreateRequestGrantor

if TYPE_CHECKING:
    from ..models.consent_scope import ConsentScope


T = TypeVar("T", bound="ConsentCreateRequest")


@_attrs_define
class ConsentCreateRequest:
    """
    Example:
        {'grantor': 'subject', 'coversLikeness': True, 'coversVoice': False, 'scope': {'uses': ['advertising'], 'media':
            ['image', 'video'], 'channels': ['social'], 'territories': ['US', 'CA']}, 'startsOn': '2027-01-01', 'endsOn':
            '2028-12-31', 'evidenceKind': 'signed_release', 'evidenceSha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}

    Attributes:
        grantor (ConsentCreateRequestGrantor):
        covers_likeness (bool):
        covers_voice (bool):
        scope (ConsentScope): What the consent covers; `*` in a list covers every value
        starts_on (str):
        ends_on (str):
        evidence_kind (ConsentCreateRequestEvidenceKind):
        evidence_sha_256 (str):
    """

    grantor: ConsentCreateRequestGrantor
    covers_likeness: bool
    covers_voice: bool
    scope: ConsentScope
    starts_on: str
    ends_on: str
    evidence_kind: ConsentCreateRequestEvidenceKind
    evidence_sha_256: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        grantor = self.grantor.value

        covers_likeness = self.covers_likeness

        covers_voice = self.covers_voice

        scope = self.scope.to_dict()

        starts_on = self.starts_on

        ends_on = self.ends_on

        evidence_kind = self.evidence_kind.value

        evidence_sha_256 = self.evidence_sha_256

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "grantor": grantor,
                "coversLikeness": covers_likeness,
                "coversVoice": covers_voice,
                "scope": scope,
                "startsOn": starts_on,
                "endsOn": ends_on,
                "evidenceKind": evidence_kind,
                "evidenceSha256": evidence_sha_256,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.consent_scope import ConsentScope

        d = dict(src_dict)
        grantor = ConsentCreateRequestGrantor(d.pop("grantor"))

        covers_likeness = d.pop("coversLikeness")

        covers_voice = d.pop("coversVoice")

        scope = ConsentScope.from_dict(d.pop("scope"))

        starts_on = d.pop("startsOn")

        ends_on = d.pop("endsOn")

        evidence_kind = ConsentCreateRequestEvidenceKind(d.pop("evidenceKind"))

        evidence_sha_256 = d.pop("evidenceSha256")

        consent_create_request = cls(
            grantor=grantor,
            covers_likeness=covers_likeness,
            covers_voice=covers_voice,
            scope=scope,
            starts_on=starts_on,
            ends_on=ends_on,
            evidence_kind=evidence_kind,
            evidence_sha_256=evidence_sha_256,
        )

        consent_create_request.additional_properties = d
        return consent_create_request

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
