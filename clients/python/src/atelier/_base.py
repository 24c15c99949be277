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

from ._generated.models import Artifact, Order, Run, RunList
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


# --- the calls ------------------------------------------------------------------------------------


def create_run(
    template_id: str,
    intake: Mapping[str, Any],
    *,
    project_id: str | None,
    workspace_id: str | None,
    providers: Mapping[str, Any] | None,
    priority: str | None,
    idempotency_key: str | None,
    tags: Sequence[str] | None = None,
    metadata: Mapping[str, str] | None = None,
) -> Call:
    body = {"templateId": template_id, "intake": dict(intake)}
    body.update(
        compact(
            {
                "projectId": project_id,
                "workspaceId": workspace_id,
                "providers": providers,
                "priority": priority,
                "tags": None if tags is None else list(tags),
                "metadata": None if metadata is None else dict(metadata),
            }
        )
    )
    headers = {"idempotency-key": idempotency_key} if idempotency_key else None
    return Call("POST", "/v1/runs", json=body, headers=headers, parse=Run.from_dict)


def get_run(run_id: str) -> Call:
    return Call("GET", f"/v1/runs/{seg(run_id)}", parse=Run.from_dict)


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


def list_runs(
    *,
    status: str | None,
    project_id: str | None,
    workspace_id: str | None,
    parent_order_id: str | None,
    include_archived: bool | None,
    limit: int,
    offset: int,
    tags: Sequence[str] | None = None,
    metadata: Mapping[str, str] | None = None,
    template_id: str | None = None,
    created_after: datetime | str | None = None,
    created_before: datetime | str | None = None,
    q: str | None = None,
) -> Call:
    params = compact(
        {
            "status": status,
            "projectId": project_id,
            "workspaceId": workspace_id,
            "parentOrderId": parent_order_id,
            "templateId": template_id,
            "createdAfter": instant("created_after", created_after),
            "createdBefore": instant("created_before", created_before),
            "q": q,
            "includeArchived": None if include_archived is None else ("true" if include_archived else "false"),
            "limit": limit,
            "offset": offset,
            # Repeated: runs carrying every tag.
            "tag": list(tags) if tags else None,
        }
    )
    # metadata[<key>]=<value> (OpenAPI deepObject), which the generated list_runs does not send (docs/api.md).
    params.update({f"metadata[{key}]": value for key, value in (metadata or {}).items()})
    return Call("GET", "/v1/runs", params=params, parse=RunList.from_dict)


def cancel_run(run_id: str) -> Call:
    return Call("POST", f"/v1/runs/{seg(run_id)}/cancel", parse=Run.from_dict)


def decide_review(run_id: str, decision: str, *, note: str | None, patch: Mapping[str, Any] | None, gate_id: str | None) -> Call:
    body = {"decision": decision, **compact({"note": note, "patch": patch, "gateId": gate_id})}
    return Call("POST", f"/v1/queue/{seg(run_id)}/decision", json=body, parse=Run.from_dict)


def create_order(
    workflow_id: str,
    variation_spec: Any,
    options: Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    tags: Sequence[str] | None = None,
    metadata: Mapping[str, str] | None = None,
) -> Call:
    names = {
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
    body: dict[str, Any] = {"workflowId": workflow_id, "variationSpec": body_of(variation_spec)}
    for key, value in options.items():
        if value is None:
            continue
        body[names.get(key, key)] = body_of(value)
    # As create_run sends them: a tuple or a read-only mapping becomes the JSON array and object the API reads.
    body.update(compact({"tags": None if tags is None else list(tags), "metadata": None if metadata is None else dict(metadata)}))
    headers = {"idempotency-key": idempotency_key} if idempotency_key else None
    return Call("POST", "/v1/orders", json=body, headers=headers, parse=Order.from_dict)


def start_order(order_id: str) -> Call:
    return Call("POST", f"/v1/orders/{seg(order_id)}/start", parse=Order.from_dict)


def get_order(order_id: str) -> Call:
    return Call("GET", f"/v1/orders/{seg(order_id)}", parse=Order.from_dict)


def get_artifact(artifact_id: str) -> Call:
    return Call("GET", f"/v1/artifacts/{seg(artifact_id)}", parse=Artifact.from_dict)


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
