from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.run_step_status import RunStepStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.step_fallback import StepFallback


T = TypeVar("T", bound="RunStep")


@_attrs_define
class RunStep:
    """
    Attributes:
        id (str): The definition step id
        name (str):
        kind (str):
        status (RunStepStatus):
        provider (None | str):
        model (None | str):
        duration_ms (int | None):
        cost_actual_usd (float): What the step cost. A subWorkflow step's is its child run's total
            (totalCosts.actualUsd), billed on the child run, not on this one
        error (None | str | Unset):
        attempts (int | Unset): Times the step was started: more than 1 when a worker died mid-step and it ran again
        fallbacks (list[StepFallback] | Unset): Models of the role binding skipped before the one that ran (provider and
            model), in the order tried; only when any was
        provider_spend_usd (float | Unset): What the providers charged for this step, every attempt included;
            costActualUsd is what is billed, once. On reads of one run
        started_at (None | str | Unset): When the step (its last attempt) started; null until it has. On reads of one
            run
        finished_at (None | str | Unset): When the step settled; null until it has. On reads of one run
        output (Any | Unset): The step's recorded output (a subWorkflow step's carries its child's runId); null until it
            has one. On reads of one run, so a list of runs stays small
        input_ (Any | Unset): What the step was given, resolved against the run as it started: a model step its rendered
            prompt (`{ prompt }`, an image step's params beside it), a tool or code function its input, a code expression
            the run context it reads. null until the step starts, for a step with no input of its own (skipped, subWorkflow:
            its child run has the intake), for steps recorded before inputs were kept, and when its JSON is over 64 KB (then
            inputOmitted is true). On reads of one run
        input_omitted (bool | Unset): True when the input was over 64 KB as JSON and was not kept (input is null). On
            reads of one run
    """

    id: str
    name: str
    kind: str
    status: RunStepStatus
    provider: None | str
    model: None | str
    duration_ms: int | None
    cost_actual_usd: float
    error: None | str | Unset = UNSET
    attempts: int | Unset = UNSET
    fallbacks: list[StepFallback] | Unset = UNSET
    provider_spend_usd: float | Unset = UNSET
    started_at: None | str | Unset = UNSET
    finished_at: None | str | Unset = UNSET
    output: Any | Unset = UNSET
    input_: Any | Unset = UNSET
    input_omitted: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        kind = self.kind

        status = self.status.value

        provider: None | str
        provider = self.provider

        model: None | str
        model = self.model

        duration_ms: int | None
        duration_ms = self.duration_ms

        cost_actual_usd = self.cost_actual_usd

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        attempts = self.attempts

        fallbacks: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.fallbacks, Unset):
            fallbacks = []
            for fallbacks_item_data in self.fallbacks:
                fallbacks_item = fallbacks_item_data.to_dict()
                fallbacks.append(fallbacks_item)

        provider_spend_usd = self.provider_spend_usd

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        else:
            started_at = self.started_at

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = self.finished_at

        output = self.output

        input_ = self.input_

        input_omitted = self.input_omitted

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "kind": kind,
                "status": status,
                "provider": provider,
                "model": model,
                "durationMs": duration_ms,
                "costActualUsd": cost_actual_usd,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if fallbacks is not UNSET:
            field_dict["fallbacks"] = fallbacks
        if provider_spend_usd is not UNSET:
            field_dict["providerSpendUsd"] = provider_spend_usd
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if output is not UNSET:
            field_dict["output"] = output
        if input_ is not UNSET:
            field_dict["input"] = input_
        if input_omitted is not UNSET:
            field_dict["inputOmitted"] = input_omitted

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.step_fallback import StepFallback

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        kind = d.pop("kind")

        status = RunStepStatus(d.pop("status"))

        def _parse_provider(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider = _parse_provider(d.pop("provider"))

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("durationMs"))

        cost_actual_usd = d.pop("costActualUsd")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        attempts = d.pop("attempts", UNSET)

        _fallbacks = d.pop("fallbacks", UNSET)
        fallbacks: list[StepFallback] | Unset = UNSET
        if _fallbacks is not UNSET:
            fallbacks = []
            for fallbacks_item_data in _fallbacks:
                fallbacks_item = StepFallback.from_dict(fallbacks_item_data)

                fallbacks.append(fallbacks_item)

        provider_spend_usd = d.pop("providerSpendUsd", UNSET)

        def _parse_started_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        started_at = _parse_started_at(d.pop("startedAt", UNSET))

        def _parse_finished_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        finished_at = _parse_finished_at(d.pop("finishedAt", UNSET))

        output = d.pop("output", UNSET)

        input_ = d.pop("input", UNSET)

        input_omitted = d.pop("inputOmitted", UNSET)

        run_step = cls(
            id=id,
            name=name,
            kind=kind,
            status=status,
            provider=provider,
            model=model,
            duration_ms=duration_ms,
            cost_actual_usd=cost_actual_usd,
            error=error,
            attempts=attempts,
            fallbacks=fallbacks,
            provider_spend_usd=provider_spend_usd,
            started_at=started_at,
            finished_at=finished_at,
            output=output,
            input_=input_,
            input_omitted=input_omitted,
        )

        run_step.additional_properties = d
        return run_step

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
