from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.brand_kind import BrandKind

if TYPE_CHECKING:
    from ..models.brand_profile import BrandProfile


T = TypeVar("T", bound="Brand")


@_attrs_define
class Brand:
    """
    Attributes:
        id (UUID): The brand project id
        workspace_id (UUID):
        kind (BrandKind):
        name (str):
        description (None | str):
        client_id (None | UUID):
        archived (bool):
        profile (BrandProfile): The working copy
        current_snapshot_id (None | str): The published snapshot campaigns pin; null until the first publish
        active_import_run_id (None | str):
        etag (str):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    workspace_id: UUID
    kind: BrandKind
    name: str
    description: None | str
    client_id: None | UUID
    archived: bool
    profile: BrandProfile
    current_snapshot_id: None | str
    active_import_run_id: None | str
    etag: str
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        kind = self.kind.value

        name = self.name

        description: None | str
        description = self.description

        client_id: None | str
        if isinstance(self.client_id, UUID):
            client_id = str(self.client_id)
        else:
            client_id = self.client_id

        archived = self.archived

        profile = self.profile.to_dict()

        current_snapshot_id: None | str
        current_snapshot_id = self.current_snapshot_id

        active_import_run_id: None | str
        active_import_run_id = self.active_import_run_id

        etag = self.etag

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "kind": kind,
                "name": name,
                "description": description,
                "clientId": client_id,
                "archived": archived,
                "profile": profile,
                "currentSnapshotId": current_snapshot_id,
                "activeImportRunId": active_import_run_id,
                "etag": etag,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brand_profile import BrandProfile

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspaceId"))

        kind = BrandKind(d.pop("kind"))

        name = d.pop("name")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_client_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                client_id_type_0 = UUID(data)

                return client_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        client_id = _parse_client_id(d.pop("clientId"))

        archived = d.pop("archived")

        profile = BrandProfile.from_dict(d.pop("profile"))

        def _parse_current_snapshot_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        current_snapshot_id = _parse_current_snapshot_id(d.pop("currentSnapshotId"))

        def _parse_active_import_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        active_import_run_id = _parse_active_import_run_id(d.pop("activeImportRunId"))

        etag = d.pop("etag")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        brand = cls(
            id=id,
            workspace_id=workspace_id,
            kind=kind,
            name=name,
            description=description,
            client_id=client_id,
            archived=archived,
            profile=profile,
            current_snapshot_id=current_snapshot_id,
            active_import_run_id=active_import_run_id,
            etag=etag,
            created_at=created_at,
            updated_at=updated_at,
        )

        brand.additional_properties = d
        return brand

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
