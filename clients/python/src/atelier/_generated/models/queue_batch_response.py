from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.queue_batch_result_type_0 import QueueBatchResultType0
    from ..models.queue_batch_result_type_1 import QueueBatchResultType1


T = TypeVar("T", bound="QueueBatchResponse")


@_attrs_define
class QueueBatchResponse:
    """
    Attributes:
        results (list[QueueBatchResultType0 | QueueBatchResultType1]):
        succeeded (int):
        failed (int):
    """

    results: list[QueueBatchResultType0 | QueueBatchResultType1]
    succeeded: int
    failed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.queue_batch_result_type_0 import QueueBatchResultType0

        results = []
        for results_item_data in self.results:
            results_item: dict[str, Any]
            if isinstance(results_item_data, QueueBatchResultType0):
                results_item = results_item_data.to_dict()
            else:
                results_item = results_item_data.to_dict()

            results.append(results_item)

        succeeded = self.succeeded

        failed = self.failed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "results": results,
                "succeeded": succeeded,
                "failed": failed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_batch_result_type_0 import QueueBatchResultType0
        from ..models.queue_batch_result_type_1 import QueueBatchResultType1

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:

            def _parse_results_item(
                data: object,
            ) -> QueueBatchResultType0 | QueueBatchResultType1:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_queue_batch_result_type_0 = (
                        QueueBatchResultType0.from_dict(data)
                    )

                    return componentsschemas_queue_batch_result_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_queue_batch_result_type_1 = (
                    QueueBatchResultType1.from_dict(data)
                )

                return componentsschemas_queue_batch_result_type_1

            results_item = _parse_results_item(results_item_data)

            results.append(results_item)

        succeeded = d.pop("succeeded")

        failed = d.pop("failed")

        queue_batch_response = cls(
            results=results,
            succeeded=succeeded,
            failed=failed,
        )

        queue_batch_response.additional_properties = d
        return queue_batch_response

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
