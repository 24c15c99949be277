from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="QueueBatchResultType1")


@_attrs_define
class QueueBatchResultType1:
    """
    Attributes:
        run_id (None | str):
        ok (bool):
        status_code (int): The status the single-decision endpoint would have answered
        detail (Any | Unset): The error detail the single-decision endpoint would have answered
    """

    run_id: None | str
    ok: bool
    status_code: int
    detail: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run_id: None | str
        run_id = self.run_id

        ok = self.ok

        status_code = self.status_code

        detail = self.detail

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "runId": run_id,
                "ok": ok,
                "statusCode": status_code,
            }
        )
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_id = _parse_run_id(d.pop("runId"))

        ok = d.pop("ok")

        status_code = d.pop("statusCode")

        detail = d.pop("detail", UNSET)

        queue_batch_result_type_1 = cls(
            run_id=run_id,
            ok=ok,
            status_code=status_code,
            detail=detail,
        )

        queue_batch_result_type_1.additional_properties = d
        return queue_batch_result_type_1

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
