"""The run event stream, GET /v1/runs/{run_id}/events (server-sent events).

The first event is a ``snapshot`` (the whole run, its steps included); then each recorded change:
``run.status``, ``step.started``, ``step.completed``, ``step.failed``, ``step.skipped``,
``artifact.created``, each with an ``id`` that increases per run (send it back as ``Last-Event-ID`` to
resume after it), and ``step.output.delta`` (a piece of a text step's output as the model writes it; no
id: never recorded, never replayed). The server ends the stream after the run's terminal event.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SETTLED_ORDER_STATUSES", "TERMINAL_RUN_STATUSES", "RunEvent", "SSEDecoder"]

#: Statuses a run never leaves on its own (``review`` waits on a person, not on the engine).
TERMINAL_RUN_STATUSES = frozenset({"completed", "review", "failed", "cancelled", "rejected", "changes_requested"})
#: Statuses an order settles in: nothing more happens without someone acting.
SETTLED_ORDER_STATUSES = frozenset({"completed", "attention", "failed", "cancelled"})


@dataclass(frozen=True)
class RunEvent:
    """One event of a run's stream.

    Attributes:
        event: ``snapshot``, ``run.status``, ``step.completed``, ... (``message`` when the server named none).
        data: The event's JSON (a dict): the whole run for ``snapshot``; ``runId``, ``at`` and what changed otherwise.
        id: The event's number as a string (``None`` for ``step.output.delta`` and for a resumed stream's snapshot).
    """

    event: str
    data: Any
    id: str | None = None

    @property
    def status(self) -> str | None:
        """The run's status this event reports (``snapshot`` and ``run.status``), else ``None``."""
        if self.event in ("snapshot", "run.status") and isinstance(self.data, dict):
            status = self.data.get("status")
            return status if isinstance(status, str) else None
        return None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_RUN_STATUSES


@dataclass
class SSEDecoder:
    """Turns the lines of a ``text/event-stream`` into events (the WHATWG parsing rules, less ``retry``)."""

    _event: str = "message"
    _id: str | None = None
    _data: list[str] = field(default_factory=list)

    def feed(self, line: str) -> RunEvent | None:
        """One line without its line break; returns the event a blank line completes, else ``None``."""
        line = line.rstrip("\r\n")
        if line == "":
            return self._dispatch()
        if line.startswith(":"):  # a comment: the server's heartbeat
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\0" not in value:
            self._id = value
        return None

    def _dispatch(self) -> RunEvent | None:
        event, ident, data = self._event, self._id, self._data
        self._event, self._id, self._data = "message", None, []
        if not data:
            return None
        raw = "\n".join(data)
        try:
            parsed: Any = json.loads(raw)
        except ValueError:
            parsed = raw
        return RunEvent(event=event, data=parsed, id=ident)
