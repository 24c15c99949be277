from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.budget_refusal_record_detail import BudgetRefusalRecordDetail


T = TypeVar("T", bound="BudgetRefusalRecord")


@_attrs_define
class BudgetRefusalRecord:
    """
    Attributes:
        id (str):
        detail (BudgetRefusalRecordDetail): The `detail` of the 402 BudgetRefusal body the request was answered with
        attempted (str):
        caller_id (None | str):
        caller_via (None | str):
        created_at (str):
    """

    id: str
    detail: BudgetRefusalRecordDetail
    attempted: str
    caller_id: None | str
    caller_via: None | str
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        detail = self.detail.to_dict()

        attempted = self.attempted

        caller_id: None | str
        caller_id = self.caller_id

        caller_via: None | str
        caller_via = self.caller_via

        created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "detail": detail,
                "attempted": attempted,
                "callerId": caller_id,
                "callerVia": caller_via,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.budget_refusal_record_detail import BudgetRefusalRecordDetail

        d = dict(src_dict)
        id = d.pop("id")

        detail = BudgetRefusalRecordDetail.from_dict(d.pop("detail"))

        attempted = d.pop("attempted")

        def _parse_caller_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        caller_id = _parse_caller_id(d.pop("callerId"))

        def _parse_caller_via(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        caller_via = _parse_caller_via(d.pop("callerVia"))

        created_at = d.pop("createdAt")

        budget_refusal_record = cls(
            id=id,
            detail=detail,
            attempted=attempted,
            caller_id=caller_id,
            caller_via=caller_via,
            created_at=created_at,
        )

        budget_refusal_record.additional_properties = d
        return budget_refusal_record

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
