from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClientRollup")


@_attrs_define
class ClientRollup:
    """
    Attributes:
        period_start (str):
        cost_usd (float | None): Owners and admins only
        waiting_on_you (int): Runs of its projects waiting in review
        made (int): Artifacts its projects produced this period
        expected_fee_cents (int | None): Owners and admins only; null for hourly billing
    """

    period_start: str
    cost_usd: float | None
    waiting_on_you: int
    made: int
    expected_fee_cents: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        period_start = self.period_start

        cost_usd: float | None
        cost_usd = self.cost_usd

        waiting_on_you = self.waiting_on_you

        made = self.made

        expected_fee_cents: int | None
        expected_fee_cents = self.expected_fee_cents

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "periodStart": period_start,
                "costUsd": cost_usd,
                "waitingOnYou": waiting_on_you,
                "made": made,
                "expectedFeeCents": expected_fee_cents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        period_start = d.pop("periodStart")

        def _parse_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost_usd = _parse_cost_usd(d.pop("costUsd"))

        waiting_on_you = d.pop("waitingOnYou")

        made = d.pop("made")

        def _parse_expected_fee_cents(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        expected_fee_cents = _parse_expected_fee_cents(d.pop("expectedFeeCents"))

        client_rollup = cls(
            period_start=period_start,
            cost_usd=cost_usd,
            waiting_on_you=waiting_on_you,
            made=made,
            expected_fee_cents=expected_fee_cents,
        )

        client_rollup.additional_properties = d
        return client_rollup

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
