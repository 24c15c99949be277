from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.client_status import ClientStatus

if TYPE_CHECKING:
    from ..models.client_billing import ClientBilling
    from ..models.client_projects_item import ClientProjectsItem
    from ..models.client_rollup import ClientRollup


T = TypeVar("T", bound="Client")


@_attrs_define
class Client:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        name (str):
        slug (str):
        status (ClientStatus):
        status_note (None | str):
        billing (ClientBilling | None): Owners and admins only
        renews_on (None | str):
        payment_customer_id (None | str): Owners and admins only
        notes (None | str):
        archived (bool):
        archived_at (None | str):
        etag (str):
        projects (list[ClientProjectsItem]):
        rollup (ClientRollup):
        created_at (str):
        updated_at (str):
    """

    id: UUID
    workspace_id: UUID
    name: str
    slug: str
    status: ClientStatus
    status_note: None | str
    billing: ClientBilling | None
    renews_on: None | str
    payment_customer_id: None | str
    notes: None | str
    archived: bool
    archived_at: None | str
    etag: str
    projects: list[ClientProjectsItem]
    rollup: ClientRollup
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.client_billing import ClientBilling

        id = str(self.id)

        workspace_id = str(self.workspace_id)

        name = self.name

        slug = self.slug

        status = self.status.value

        status_note: None | str
        status_note = self.status_note

        billing: dict[str, Any] | None
        if isinstance(self.billing, ClientBilling):
            billing = self.billing.to_dict()
        else:
            billing = self.billing

        renews_on: None | str
        renews_on = self.renews_on

        payment_customer_id: None | str
        payment_customer_id = self.payment_customer_id

        notes: None | str
        notes = self.notes

        archived = self.archived

        archived_at: None | str
        archived_at = self.archived_at

        etag = self.etag

        projects = []
        for projects_item_data in self.projects:
            projects_item = projects_item_data.to_dict()
            projects.append(projects_item)

        rollup = self.rollup.to_dict()

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspaceId": workspace_id,
                "name": name,
                "slug": slug,
                "status": status,
                "statusNote": status_note,
                "billing": billing,
                "renewsOn": renews_on,
                "paymentCustomerId": payment_customer_id,
                "notes": notes,
                "archived": archived,
                "archivedAt": archived_at,
                "etag": etag,
                "projects": projects,
                "rollup": rollup,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client_billing import ClientBilling
        from ..models.client_projects_item import ClientProjectsItem
        from ..models.client_rollup import ClientRollup

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspaceId"))

        name = d.pop("name")

        slug = d.pop("slug")

        status = ClientStatus(d.pop("status"))

        def _parse_status_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status_note = _parse_status_note(d.pop("statusNote"))

        def _parse_billing(data: object) -> ClientBilling | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                billing_type_0 = ClientBilling.from_dict(data)

                return billing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClientBilling | None, data)

        billing = _parse_billing(d.pop("billing"))

        def _parse_renews_on(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        renews_on = _parse_renews_on(d.pop("renewsOn"))

        def _parse_payment_customer_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_customer_id = _parse_payment_customer_id(d.pop("paymentCustomerId"))

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        archived = d.pop("archived")

        def _parse_archived_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        archived_at = _parse_archived_at(d.pop("archivedAt"))

        etag = d.pop("etag")

        projects = []
        _projects = d.pop("projects")
        for projects_item_data in _projects:
            projects_item = ClientProjectsItem.from_dict(projects_item_data)

            projects.append(projects_item)

        rollup = ClientRollup.from_dict(d.pop("rollup"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        client = cls(
            id=id,
            workspace_id=workspace_id,
            name=name,
            slug=slug,
            status=status,
            status_note=status_note,
            billing=billing,
            renews_on=renews_on,
            payment_customer_id=payment_customer_id,
            notes=notes,
            archived=archived,
            archived_at=archived_at,
            etag=etag,
            projects=projects,
            rollup=rollup,
            created_at=created_at,
            updated_at=updated_at,
        )

        client.additional_properties = d
        return client

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
