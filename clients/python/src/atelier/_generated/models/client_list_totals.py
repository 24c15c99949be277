from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClientListTotals")


@_attrs_define
class ClientListTotals:
    """Over the matching active and paused clients: leads and past clients stay out

    Attributes:
        cost_usd (float | None):
        expected_fee_cents (int | None):
        waiting_on_you (int):
        made (int):
    """

    cost_usd: float | None
    expected_fee_cents: int | None
    waiting_on_you: int
    made: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cost_usd: float | None
        cost_usd = self.cost_usd

        expected_fee_cents: int | None
        expected_fee_cents = self.expected_fee_cents

        waiting_on_you = self.waiting_on_you

        made = self.made

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "costUsd": cost_usd,
                "expectedFeeCents": expected_fee_cents,
                "waitingOnYou": waiting_on_you,
                "made": made,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost_usd = _parse_cost_usd(d.pop("costUsd"))

        def _parse_expected_fee_cents(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        expected_fee_cents = _parse_expected_fee_cents(d.pop("expectedFeeCents"))

        waiting_on_you = d.pop("waitingOnYou")

        made = d.pop("made")

        client_list_totals = cls(
            cost_usd=cost_usd,
            expected_fee_cents=expected_fee_cents,
            waiting_on_you=waiting_on_you,
            made=made,
        )

        client_list_totals.additional_properties = d
        return client_list_totals

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
