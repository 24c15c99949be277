from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RetryFailedRequest")


@_attrs_define
class RetryFailedRequest:
    """
    Example:
        {'all': True, 'includeDeterministic': False}

    Attributes:
        all_ (bool | Unset):
        run_ids (list[str] | Unset): Children to retry, when not all
        include_deterministic (bool | Unset):
    """

    all_: bool | Unset = UNSET
    run_ids: list[str] | Unset = UNSET
    include_deterministic: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        all_ = self.all_

        run_ids: list[str] | Unset = UNSET
        if not isinstance(self.run_ids, Unset):
            run_ids = self.run_ids

        include_deterministic = self.include_deterministic

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if all_ is not UNSET:
            field_dict["all"] = all_
        if run_ids is not UNSET:
            field_dict["runIds"] = run_ids
        if include_deterministic is not UNSET:
            field_dict["includeDeterministic"] = include_deterministic

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        all_ = d.pop("all", UNSET)

        run_ids = cast(list[str], d.pop("runIds", UNSET))

        include_deterministic = d.pop("includeDeterministic", UNSET)

        retry_failed_request = cls(
            all_=all_,
            run_ids=run_ids,
            include_deterministic=include_deterministic,
        )

        retry_failed_request.additional_properties = d
        return retry_failed_request

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
