from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.client_billing_model import ClientBillingModel
from ..models.client_billing_period import ClientBillingPeriod

T = TypeVar("T", bound="ClientBilling")


@_attrs_define
class ClientBilling:
    """
    Attributes:
        version (int): Raised on every billing change
        model (ClientBillingModel):
        amount_cents (int):
        currency (str):
        period (ClientBillingPeriod):
        scope (list[str]):
        renews_on (None | str):
    """

    version: int
    model: ClientBillingModel
    amount_cents: int
    currency: str
    period: ClientBillingPeriod
    scope: list[str]
    renews_on: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        model = self.model.value

        amount_cents = self.amount_cents

        currency = self.currency

        period = self.period.value

        scope = self.scope

        renews_on: None | str
        renews_on = self.renews_on

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "model": model,
                "amountCents": amount_cents,
                "currency": currency,
                "period": period,
                "scope": scope,
                "renewsOn": renews_on,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        version = d.pop("version")

        model = ClientBillingModel(d.pop("model"))

        amount_cents = d.pop("amountCents")

        currency = d.pop("currency")

        period = ClientBillingPeriod(d.pop("period"))

        scope = cast(list[str], d.pop("scope"))

        def _parse_renews_on(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        renews_on = _parse_renews_on(d.pop("renewsOn"))

        client_billing = cls(
            version=version,
            model=model,
            amount_cents=amount_cents,
            currency=currency,
            period=period,
            scope=scope,
            renews_on=renews_on,
        )

        client_billing.additional_properties = d
        return client_billing

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
