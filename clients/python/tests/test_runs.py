"""Runs: created, followed over the event stream (and across a broken connection), their artifact downloaded."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from atelier import AsyncAtelier, Atelier, NotFound, RunEvent, models


def test_a_run_is_waited_for_over_the_event_stream_and_its_artifact_downloaded(client: Atelier, tmp_path: Path) -> None:
    created = client.create_run("generate-illustration", {"subject": "a lighthouse on a cliff"})
    assert isinstance(created, models.Run)
    assert created.status == "pending"

    events: list[RunEvent] = []
    run = client.wait_for_run(created.id, timeout=90, on_event=events.append)
    assert run.status == "completed"
    assert run.artifact_id
    assert events[0].event == "snapshot"
    names = {e.event for e in events}
    assert {"run.status", "step.completed", "artifact.created"} <= names
    assert events[-1].is_terminal

    assert client.get_run(created.id).status == "completed"
    listed = client.list_runs(limit=100)
    assert created.id in {r.id for r in listed.items}

    path = client.download_artifact(run.artifact_id, tmp_path)
    data = path.read_bytes()
    assert path.parent == tmp_path
    assert data[8:12] == b"WEBP"
    written = client.download_artifact(run.artifact_id, tmp_path / "copy" / "image.webp")
    assert written.read_bytes() == data


class _CutAfterFirstEvent(httpx.SyncByteStream):
    """The server's stream, broken (a ReadError) right after its first event."""

    def __init__(self, inner: httpx.SyncByteStream) -> None:
        self.inner = inner

    def __iter__(self):
        buffered = b""
        for chunk in self.inner:
            buffered += chunk
            end = buffered.find(b"\n\n")
            if end >= 0:
                yield buffered[: end + 2]
                raise httpx.ReadError("connection reset (test)")

    def close(self) -> None:
        self.inner.close()


class _BreaksFirstEventStream(httpx.BaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.last_event_ids: list[str | None] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/events"):
            self.last_event_ids.append(request.headers.get("last-event-id"))
            if len(self.last_event_ids) == 1:
                return httpx.Response(response.status_code, headers=response.headers, stream=_CutAfterFirstEvent(response.stream))
        return response

    def close(self) -> None:
        self.inner.close()


def test_wait_for_run_reconnects_with_last_event_id(base_url: str, api_key: str) -> None:
    transport = _BreaksFirstEventStream()
    with Atelier(base_url, api_key, http_client=httpx.Client(transport=transport)) as client:
        created = client.create_run("plan-research-report", {"topic": "tides", "depth": "brief"})
        events: list[RunEvent] = []
        run = client.wait_for_run(created.id, timeout=60, on_event=events.append)
    assert run.status == "completed"
    # The first connection gave the snapshot (with its id) and broke; the next resumed after it.
    assert events[0].event == "snapshot" and events[0].id is not None
    assert transport.last_event_ids[:2] == [None, events[0].id], transport.last_event_ids
    ids = [int(e.id) for e in events if e.id is not None]
    assert ids == sorted(set(ids)), "an event was seen twice after the reconnect"


def test_cancel_and_not_found(client: Atelier) -> None:
    created = client.create_run("plan-research-report", {"topic": "eels", "depth": "brief"})
    cancelled = client.cancel_run(created.id)
    assert cancelled.id == created.id
    assert client.wait_for_run(created.id, timeout=60).status in ("cancelled", "completed")
    with pytest.raises(NotFound) as err:
        client.get_run("run-00000000")
    assert err.value.status == 404
    with pytest.raises(NotFound):
        client.wait_for_run("run-00000000", timeout=10)


def test_tags_and_metadata_label_a_run_and_filter_the_list(client: Atelier) -> None:
    tag = f"py-{uuid.uuid4().hex[:12]}"
    created = client.create_run(
        "plan-research-report", {"topic": "herons", "depth": "brief"}, tags=[tag, "second", tag], metadata={"ticket": "PY-1"}
    )
    assert created.tags == [tag, "second"]
    assert created.metadata.to_dict() == {"ticket": "PY-1"}
    client.cancel_run(created.id)

    assert [r.id for r in client.list_runs(tags=[tag, "second"], metadata={"ticket": "PY-1"}).items] == [created.id]
    assert client.list_runs(tags=[tag], metadata={"ticket": "other"}).items == []
    assert client.list_runs(tags=[tag, "absent"]).items == []


def test_list_runs_by_workflow_creation_window_and_search(client: Atelier, base_url: str, api_key: str) -> None:
    tag = f"py-window-{uuid.uuid4().hex[:12]}"
    first, second = (
        client.create_run("plan-research-report", {"topic": t, "depth": "brief"}, tags=[tag]) for t in ("ibis", "rail")
    )
    for run in (first, second):
        client.cancel_run(run.id)
    at = datetime.fromisoformat(second.created_at)

    def ids(**filters: Any) -> list[str]:
        return [r.id for r in client.list_runs(tags=[tag], **filters).items]

    # created_after inclusive, created_before exclusive: the same instant splits the two.
    assert ids(created_after=at) == [second.id]
    assert ids(created_before=at) == [first.id]
    assert ids(created_after=second.created_at, template_id="plan-research-report") == [second.id]
    assert ids(template_id="generate-product-shot") == []
    # q finds the runs by their tag, case aside, without the tag filter.
    assert [r.id for r in client.list_runs(q=tag.upper()).items] == [second.id, first.id]
    assert ids(q="no-such-text") == []
    with pytest.raises(ValueError, match="timezone"):
        client.list_runs(created_after=at.replace(tzinfo=None))

    async def listed_async() -> list[str]:
        async with AsyncAtelier(base_url, api_key) as async_client:
            page = await async_client.list_runs(q=tag, created_before=at, template_id="plan-research-report")
            return [r.id for r in page.items]

    assert asyncio.run(listed_async()) == [first.id]
