"""What the sync and async clients share: how each call is asked and how its answer is read."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from ._generated.models import Artifact
from .errors import error_from_response

__version__ = "0.1.0"
USER_AGENT = f"atelier-python/{__version__}"
DEFAULT_TIMEOUT = httpx.Timeout(30.0)
#: How long one read of the event stream may wait: the server sends a heartbeat every 15 s.
STREAM_TIMEOUT = httpx.Timeout(30.0, read=45.0)


def seg(value: str) -> str:
    """A path segment, escaped."""
    return quote(str(value), safe="")


def body_of(value: Any) -> Any:
    """A request body from a generated model (its ``to_dict()``) or plain JSON data."""
    return value.to_dict() if hasattr(value, "to_dict") else value


def compact(values: Mapping[str, Any]) -> dict[str, Any]:
    """The entries that are not ``None``, models turned into JSON data."""
    return {k: body_of(v) for k, v in values.items() if v is not None}


@dataclass(frozen=True)
class Call:
    """One API call: what to send and how to read a 2xx answer's JSON."""

    method: str
    path: str
    json: Any = None
    params: Mapping[str, Any] | None = None
    headers: Mapping[str, str] | None = None
    parse: Callable[[Any], Any] = lambda data: data


def decode(response: httpx.Response, parse: Callable[[Any], Any]) -> Any:
    """The parsed body of a 2xx response (``None`` for 204); the typed error otherwise."""
    if response.status_code >= 400:
        raise error_from_response(response)
    if response.status_code == 204 or not response.content:
        return None
    return parse(response.json())


def client_headers(api_key: str, extra: Mapping[str, str] | None) -> dict[str, str]:
    return {"user-agent": USER_AGENT, **(extra or {}), "authorization": f"Bearer {api_key}"}


def events_headers(last_event_id: str | None) -> dict[str, str]:
    headers = {"accept": "text/event-stream", "cache-control": "no-cache"}
    if last_event_id is not None:
        headers["last-event-id"] = last_event_id
    return headers


# --- what the calls send --------------------------------------------------------------------------


def labels(tags: Sequence[str] | None, metadata: Mapping[str, str] | None) -> dict[str, Any]:
    """A run's or an order's ``tags`` and ``metadata`` for its body (those given).

    A tuple or a read-only mapping becomes the JSON array and object the API reads.
    """
    return compact({"tags": None if tags is None else list(tags), "metadata": None if metadata is None else dict(metadata)})


def idempotency_headers(key: str | None) -> dict[str, str] | None:
    return {"idempotency-key": key} if key else None


def instant(name: str, value: datetime | str | None) -> str | None:
    """A datetime as the ISO 8601 instant the API takes; a string is sent as given (the gateway checks it).

    A datetime without a timezone is refused here: the API needs an offset, and guessing the machine's zone
    would move the window by hours without a word.
    """
    if value is None or isinstance(value, str):
        return value
    if value.utcoffset() is None:
        raise ValueError(f"{name} needs a timezone (e.g. datetime(..., tzinfo=timezone.utc)), got a naive datetime")
    return value.isoformat()


#: The API's names for create_order's options (an option not listed here is sent under the name given).
ORDER_OPTION_NAMES = {
    "intake_base": "intakeBase",
    "workflow_version": "workflowVersion",
    "workspace_id": "workspaceId",
    "project_id": "projectId",
    "target_count": "targetCount",
    "execution_mode": "executionMode",
    "budget_limit_usd": "budgetLimitUsd",
    "budget_enforcement_mode": "budgetEnforcementMode",
    "provider_overrides": "providerOverrides",
    "plan_artifact_id": "planArtifactId",
    "priority": "priority",
    "max_concurrency": "maxConcurrency",
    "order_dedupe_key": "orderDedupeKey",
}


def order_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """create_order's options for its body, under the API's names; those set to ``None`` are left out."""
    return {ORDER_OPTION_NAMES.get(key, key): body_of(value) for key, value in options.items() if value is not None}


# --- downloads ------------------------------------------------------------------------------------


def artifact_file(artifact: Artifact, field: str) -> tuple[str, str]:
    """The URL of the artifact's file (``content.url``, or ``content.rawUrl``) and a safe file name for it."""
    content = artifact.content.to_dict() if hasattr(artifact.content, "to_dict") else dict(artifact.content)
    url = content.get(field)
    if not isinstance(url, str) or not url:
        raise ValueError(
            f"artifact {artifact.id} has no file at content.{field} (a text artifact's result is its content: artifact.content)"
        )
    key = content.get("rawStorageKey" if field == "rawUrl" else "storageKey")
    candidate = key if isinstance(key, str) else urlsplit(url).path
    name = re.sub(r"[^A-Za-z0-9._-]", "_", PurePosixPath(candidate).name)
    return url, (name if name not in ("", ".", "..") else f"{artifact.id}-{field}")


def download_target(dest: str | Path, name: str) -> Path:
    """``dest`` itself, or ``dest/name`` when ``dest`` is a directory (or ends with a separator)."""
    path = Path(dest)
    if path.is_dir() or str(dest).endswith(("/", "\\")):
        path.mkdir(parents=True, exist_ok=True)
        return path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def backoff(failures: int) -> float:
    """The pause before reopening a run's event stream: 0.2 s after a clean end, then growing to 5 s."""
    return 0.2 if failures == 0 else min(0.5 * 2 ** (failures - 1), 5.0)
