from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workflow_invalid_detail_code import WorkflowInvalidDetailCode
from ..models.workflow_invalid_detail_error import WorkflowInvalidDetailError

T = TypeVar("T", bound="WorkflowInvalidDetail")


@_attrs_define
class WorkflowInvalidDetail:
    """
    Attributes:
        error (WorkflowInvalidDetailError):
        code (WorkflowInvalidDetailCode):
        errors (list[str]):
    """

    error: WorkflowInvalidDetailError
    code: WorkflowInvalidDetailCode
    errors: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error.value

        code = self.code.value

        errors = self.errors

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "code": code,
                "errors": errors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        error = WorkflowInvalidDetailError(d.pop("error"))

        code = WorkflowInvalidDetailCode(d.pop("code"))

        errors = cast(list[str], d.pop("errors"))

        workflow_invalid_detail = cls(
            error=error,
            code=code,
            errors=errors,
        )

        workflow_invalid_detail.additional_properties = d
        return workflow_invalid_detail

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
