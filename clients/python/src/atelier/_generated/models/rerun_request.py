from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rerun_request_intake import RerunRequestIntake
    from ..models.rerun_request_providers import RerunRequestProviders


T = TypeVar("T", bound="RerunRequest")


@_attrs_define
class RerunRequest:
    """
    Example:
        {'intake': {'topic': 'rooftop beekeeping in winter'}, 'dryRun': True}

    Attributes:
        intake (RerunRequestIntake | Unset): Merged over the original run's intake (as stored, defaults applied), one
            level deep: a key given replaces that key's value whole (an object or a list is not merged into), keys not given
            keep the original value. The result is validated as POST /v1/runs validates an intake
        providers (RerunRequestProviders | Unset): Role bindings over the original run's: a role given is bound as given
            (a model id or an ordered list), the others keep the original binding
        dry_run (bool | Unset): true: price and check the rerun (the same 4xx and 402 answers as for real), create
            nothing, answer 200 with the estimate
    """

    intake: RerunRequestIntake | Unset = UNSET
    providers: RerunRequestProviders | Unset = UNSET
    dry_run: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        intake: dict[str, Any] | Unset = UNSET
        if not isinstance(self.intake, Unset):
            intake = self.intake.to_dict()

        providers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.providers, Unset):
            providers = self.providers.to_dict()

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if intake is not UNSET:
            field_dict["intake"] = intake
        if providers is not UNSET:
            field_dict["providers"] = providers
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rerun_request_intake import RerunRequestIntake
        from ..models.rerun_request_providers import RerunRequestProviders

        d = dict(src_dict)
        _intake = d.pop("intake", UNSET)
        intake: RerunRequestIntake | Unset
        if isinstance(_intake, Unset):
            intake = UNSET
        else:
            intake = RerunRequestIntake.from_dict(_intake)

        _providers = d.pop("providers", UNSET)
        providers: RerunRequestProviders | Unset
        if isinstance(_providers, Unset):
            providers = UNSET
        else:
            providers = RerunRequestProviders.from_dict(_providers)

        dry_run = d.pop("dryRun", UNSET)

        rerun_request = cls(
            intake=intake,
            providers=providers,
            dry_run=dry_run,
        )

        rerun_request.additional_properties = d
        return rerun_request

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
