from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.run_decision_decision import RunDecisionDecision

if TYPE_CHECKING:
    from ..models.run_decision_patch_type_0 import RunDecisionPatchType0


T = TypeVar("T", bound="RunDecision")


@_attrs_define
class RunDecision:
    """
    Attributes:
        decision (RunDecisionDecision):
        note (None | str):
        gate_id (None | str):
        patch (None | RunDecisionPatchType0):
        who (str): The user who decided
        via (str): session or api_key
        when (str):
    """

    decision: RunDecisionDecision
    note: None | str
    gate_id: None | str
    patch: None | RunDecisionPatchType0
    who: str
    via: str
    when: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.run_decision_patch_type_0 import RunDecisionPatchType0

        decision = self.decision.value

        note: None | str
        note = self.note

        gate_id: None | str
        gate_id = self.gate_id

        patch: dict[str, Any] | None
        if isinstance(self.patch, RunDecisionPatchType0):
            patch = self.patch.to_dict()
        else:
            patch = self.patch

        who = self.who

        via = self.via

        when = self.when

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "note": note,
                "gateId": gate_id,
                "patch": patch,
                "who": who,
                "via": via,
                "when": when,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.run_decision_patch_type_0 import RunDecisionPatchType0

        d = dict(src_dict)
        decision = RunDecisionDecision(d.pop("decision"))

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))

        def _parse_gate_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        gate_id = _parse_gate_id(d.pop("gateId"))

        def _parse_patch(data: object) -> None | RunDecisionPatchType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                patch_type_0 = RunDecisionPatchType0.from_dict(data)

                return patch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RunDecisionPatchType0, data)

        patch = _parse_patch(d.pop("patch"))

        who = d.pop("who")

        via = d.pop("via")

        when = d.pop("when")

        run_decision = cls(
            decision=decision,
            note=note,
            gate_id=gate_id,
            patch=patch,
            who=who,
            via=via,
            when=when,
        )

        run_decision.additional_properties = d
        return run_decision

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
