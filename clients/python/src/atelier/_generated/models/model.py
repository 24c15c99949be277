from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.model_kind import ModelKind

if TYPE_CHECKING:
    from ..models.model_pricing import ModelPricing


T = TypeVar("T", bound="Model")


@_attrs_define
class Model:
    """
    Attributes:
        id (str):
        provider (str):
        kind (ModelKind):
        capabilities (list[str]):
        pricing (ModelPricing):
        batch (bool):
        status (str):
        snapshot_of (None | str):
    """

    id: str
    provider: str
    kind: ModelKind
    capabilities: list[str]
    pricing: ModelPricing
    batch: bool
    status: str
    snapshot_of: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        provider = self.provider

        kind = self.kind.value

        capabilities = self.capabilities

        pricing = self.pricing.to_dict()

        batch = self.batch

        status = self.status

        snapshot_of: None | str
        snapshot_of = self.snapshot_of

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "provider": provider,
                "kind": kind,
                "capabilities": capabilities,
                "pricing": pricing,
                "batch": batch,
                "status": status,
                "snapshotOf": snapshot_of,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.model_pricing import ModelPricing

        d = dict(src_dict)
        id = d.pop("id")

        provider = d.pop("provider")

        kind = ModelKind(d.pop("kind"))

        capabilities = cast(list[str], d.pop("capabilities"))

        pricing = ModelPricing.from_dict(d.pop("pricing"))

        batch = d.pop("batch")

        status = d.pop("status")

        def _parse_snapshot_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        snapshot_of = _parse_snapshot_of(d.pop("snapshotOf"))

        model = cls(
            id=id,
            provider=provider,
            kind=kind,
            capabilities=capabilities,
            pricing=pricing,
            batch=batch,
            status=status,
            snapshot_of=snapshot_of,
        )

        model.additional_properties = d
        return model

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
