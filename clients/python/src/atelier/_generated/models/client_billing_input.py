from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.client_billing_input_model import ClientBillingInputModel
from ..models.client_billing_input_period import ClientBillingInputPeriod
from ..types import UNSET, Unset

T = TypeVar("T", bound="ClientBillingInput")


@_attrs_define
class ClientBillingInput:
    """
    Attributes:
        model (ClientBillingInputModel):
        amount_cents (int):
        period (ClientBillingInputPeriod):
        currency (str | Unset):  Default: 'USD'.
        scope (list[str] | Unset):
        renews_on (None | str | Unset):
    """

    model: ClientBillingInputModel
    amount_cents: int
    period: ClientBillingInputPeriod
    currency: str | Unset = "USD"
    scope: list[str] | Unset = UNSET
    renews_on: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        model = self.model.value

        amount_cents = self.amount_cents

        period = self.period.value

        currency = self.currency

        scope: list[str] | Unset = UNSET
        if not isinstance(self.scope, Unset):
            scope = self.scope

        renews_on: None | str | Unset
        if isinstance(self.renews_on, Unset):
            renews_on = UNSET
        else:
            renews_on = self.renews_on

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "model": model,
                "amountCents": amount_cents,
                "period": period,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if scope is not UNSET:
            field_dict["scope"] = scope
        if renews_on is not UNSET:
            field_dict["renewsOn"] = renews_on

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        model = ClientBillingInputModel(d.pop("model"))

        amount_cents = d.pop("amountCents")

        period = ClientBillingInputPeriod(d.pop("period"))

        currency = d.pop("currency", UNSET)

        scope = cast(list[str], d.pop("scope", UNSET))

        def _parse_renews_on(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        renews_on = _parse_renews_on(d.pop("renewsOn", UNSET))

        client_billing_input = cls(
            model=model,
            amount_cents=amount_cents,
            period=period,
            currency=currency,
            scope=scope,
            renews_on=renews_on,
        )

        client_billing_input.additional_properties = d
        return client_billing_input

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
