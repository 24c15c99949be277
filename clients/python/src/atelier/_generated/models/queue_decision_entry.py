from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.queue_decision_request_decision import QueueDecisionRequestDecision
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.queue_decision_request_patch_type_0 import (
        QueueDecisionRequestPatchType0,
    )


T = TypeVar("T", bound="QueueDecisionEntry")


@_attrs_define
class QueueDecisionEntry:
    """
    Example:
        {'runId': 'run-3f9a1c2e', 'decision': 'approve', 'note': 'Looks good'}

    Attributes:
        decision (QueueDecisionRequestDecision):
        run_id (str):
        note (None | str | Unset): Kept in the decision ledger with who and when
        patch (None | QueueDecisionRequestPatchType0 | Unset): Releases a typed hold on approval: exactly the fields the
            hold declared, each of its type
        gate_id (None | str | Unset): When given, must be the gate the run waits on
    """

    decision: QueueDecisionRequestDecision
    run_id: str
    note: None | str | Unset = UNSET
    patch: None | QueueDecisionRequestPatchType0 | Unset = UNSET
    gate_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.queue_decision_request_patch_type_0 import (
            QueueDecisionRequestPatchType0,
        )

        decision = self.decision.value

        run_id = self.run_id

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        patch: dict[str, Any] | None | Unset
        if isinstance(self.patch, Unset):
            patch = UNSET
        elif isinstance(self.patch, QueueDecisionRequestPatchType0):
            patch = self.patch.to_dict()
        else:
            patch = self.patch

        gate_id: None | str | Unset
        if isinstance(self.gate_id, Unset):
            gate_id = UNSET
        else:
            gate_id = self.gate_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "runId": run_id,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note
        if patch is not UNSET:
            field_dict["patch"] = patch
        if gate_id is not UNSET:
            field_dict["gateId"] = gate_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_decision_request_patch_type_0 import (
            QueueDecisionRequestPatchType0,
        )

        d = dict(src_dict)
        decision = QueueDecisionRequestDecision(d.pop("decision"))

        run_id = d.pop("runId")

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        def _parse_patch(data: object) -> None | QueueDecisionRequestPatchType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                patch_type_0 = QueueDecisionRequestPatchType0.from_dict(data)

                return patch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QueueDecisionRequestPatchType0 | Unset, data)

        patch = _parse_patch(d.pop("patch", UNSET))

        def _parse_gate_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        gate_id = _parse_gate_id(d.pop("gateId", UNSET))

        queue_decision_entry = cls(
            decision=decision,
            run_id=run_id,
            note=note,
            patch=patch,
            gate_id=gate_id,
        )

        queue_decision_entry.additional_properties = d
        return queue_decision_entry

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
