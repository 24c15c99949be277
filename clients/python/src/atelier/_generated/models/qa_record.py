from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.qa_check import QaCheck


T = TypeVar("T", bound="QaRecord")


@_attrs_define
class QaRecord:
    """
    Attributes:
        status (str):
        checks (list[QaCheck]):
    """

    status: str
    checks: list[QaCheck]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "checks": checks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.qa_check import QaCheck

        d = dict(src_dict)
        status = d.pop("status")

        checks = []
        _checks = d.pop("checks")
        for checks_item_data in _checks:
            checks_item = QaCheck.from_dict(checks_item_data)

            checks.append(checks_item)

        qa_record = cls(
            status=status,
            checks=checks,
        )

        qa_record.additional_properties = d
        return qa_record

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
