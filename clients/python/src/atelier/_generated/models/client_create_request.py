from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.client_create_request_status import ClientCreateRequestStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.client_billing_input import ClientBillingInput


T = TypeVar("T", bound="ClientCreateRequest")


@_attrs_define
class ClientCreateRequest:
    """
    Example:
        {'name': 'Acme Honey Co.', 'slug': 'acme-honey', 'status': 'active', 'billing': {'model': 'retainer',
            'amountCents': 250000, 'currency': 'USD', 'period': 'month', 'scope': ['newsletter', 'social']}, 'requestId':
            'create-acme-2026-11-26'}

    Attributes:
        name (str):
        slug (str | Unset): Derived from the name when absent
        status (ClientCreateRequestStatus | Unset):  Default: ClientCreateRequestStatus.LEAD.
        status_note (str | Unset):
        billing (ClientBillingInput | Unset):
        payment_customer_id (str | Unset):
        notes (str | Unset):
        request_id (str | Unset): A retry with the same requestId and body returns the first answer
    """

    name: str
    slug: str | Unset = UNSET
    status: ClientCreateRequestStatus | Unset = ClientCreateRequestStatus.LEAD
    status_note: str | Unset = UNSET
    billing: ClientBillingInput | Unset = UNSET
    payment_customer_id: str | Unset = UNSET
    notes: str | Unset = UNSET
    request_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        slug = self.slug

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        status_note = self.status_note

        billing: dict[str, Any] | Unset = UNSET
        if not isinstance(self.billing, Unset):
            billing = self.billing.to_dict()

        payment_customer_id = self.payment_customer_id

        notes = self.notes

        request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
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
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client_billing_input import ClientBillingInput

        d = dict(src_dict)
        name = d.pop("name")

        slug = d.pop("slug", UNSET)

        _status = d.pop("status", UNSET)
        status: ClientCreateRequestStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ClientCreateRequestStatus(_status)

        status_note = d.pop("statusNote", UNSET)

        _billing = d.pop("billing", UNSET)
        billing: ClientBillingInput | Unset
        if isinstance(_billing, Unset):
            billing = UNSET
        else:
            billing = ClientBillingInput.from_dict(_billing)

        payment_customer_id = d.pop("paymentCustomerId", UNSET)

        notes = d.pop("notes", UNSET)

        request_id = d.pop("requestId", UNSET)

        client_create_request = cls(
            name=name,
            slug=slug,
            status=status,
            status_note=status_note,
            billing=billing,
            payment_customer_id=payment_customer_id,
            notes=notes,
            request_id=request_id,
        )

        client_create_request.additional_properties = d
        return client_create_request

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
