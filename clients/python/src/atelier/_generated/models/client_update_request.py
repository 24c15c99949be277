from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.client_update_request_status import ClientUpdateRequestStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.client_update_request_billing import ClientUpdateRequestBilling


T = TypeVar("T", bound="ClientUpdateRequest")


@_attrs_define
class ClientUpdateRequest:
    """
    Example:
        {'status': 'paused', 'statusNote': 'Paused over the winter season', 'etag': '"c1d9f4a2b7"'}

    Attributes:
        name (str | Unset):
        slug (str | Unset):
        status (ClientUpdateRequestStatus | Unset):
        status_note (None | str | Unset):
        billing (ClientUpdateRequestBilling | Unset):
        payment_customer_id (None | str | Unset):
        notes (None | str | Unset):
        etag (str | Unset): The etag you read; or send it as If-Match
    """

    name: str | Unset = UNSET
    slug: str | Unset = UNSET
    status: ClientUpdateRequestStatus | Unset = UNSET
    status_note: None | str | Unset = UNSET
    billing: ClientUpdateRequestBilling | Unset = UNSET
    payment_customer_id: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    etag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        slug = self.slug

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        status_note: None | str | Unset
        if isinstance(self.status_note, Unset):
            status_note = UNSET
        else:
            status_note = self.status_note

        billing: dict[str, Any] | Unset = UNSET
        if not isinstance(self.billing, Unset):
            billing = self.billing.to_dict()

        payment_customer_id: None | str | Unset
        if isinstance(self.payment_customer_id, Unset):
            payment_customer_id = UNSET
        else:
            payment_customer_id = self.payment_customer_id

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        etag = self.etag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if slug is not UNSET:
            field_dict["slug"] = slug
        if status is not UNSET:
            field_dict["status"] = status
        if status_note is not UNSET:
            field_dict["statusNote"] = status_note
        if billing is not UNSET:
            field_dict["billing"] = billing
        if payment_customer_id is not UNSET:
            field_dict["paymentCustomerId"] = payment_customer_id
        if notes is not UNSET:
            field_dict["notes"] = notes
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client_update_request_billing import ClientUpdateRequestBilling

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        slug = d.pop("slug", UNSET)

        _status = d.pop("status", UNSET)
        status: ClientUpdateRequestStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ClientUpdateRequestStatus(_status)

        def _parse_status_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status_note = _parse_status_note(d.pop("statusNote", UNSET))

        _billing = d.pop("billing", UNSET)
        billing: ClientUpdateRequestBilling | Unset
        if isinstance(_billing, Unset):
            billing = UNSET
        else:
            billing = ClientUpdateRequestBilling.from_dict(_billing)

        def _parse_payment_customer_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        payment_customer_id = _parse_payment_customer_id(
            d.pop("paymentCustomerId", UNSET)
        )

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        etag = d.pop("etag", UNSET)

        client_update_request = cls(
            name=name,
            slug=slug,
            status=status,
            status_note=status_note,
            billing=billing,
            payment_customer_id=payment_customer_id,
            notes=notes,
            etag=etag,
        )

        client_update_request.additional_properties = d
        return client_update_request

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
