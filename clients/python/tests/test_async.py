"""AsyncAtelier: the same calls, awaited."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from atelier import AsyncAtelier, IntakeInvalid, NotFound, RunEvent


def test_the_async_client_runs_waits_follows_and_refuses(base_url: str, api_key: str, tmp_path: Path) -> None:
    async def main() -> None:
        async with AsyncAtelier(base_url, api_key) as client:
            runs = [await client.create_run("plan-research-report", {"topic": t, "depth": "brief"}) for t in ("owls", "larks")]
            events: list[RunEvent] = []
            done = await asyncio.gather(*(client.wait_for_run(r.id, timeout=60, on_event=events.append) for r in runs))
            assert [r.status for r in done] == ["completed", "completed"]
            assert {e.event for e in events} >= {"snapshot", "run.status"}

            streamed = [e async for e in client.stream_run_events(runs[0].id)]
            assert streamed[0].event == "snapshot" and streamed[0].is_terminal

            order = await client.create_order(
                "plan-research-report",
                {"resolver": "list", "params": {"items": [{"topic": "terns"}]}},
                intake_base={"depth": "brief"},
            )
            await client.start_order(order.id)
            settled = await client.follow_order(order.id, poll_interval=0.2, timeout=90)
            assert settled.status == "completed"

            illustration = await client.create_run("generate-illustration", {"subject": "a heron"})
            finished = await client.wait_for_run(illustration.id, timeout=90)
            path = await client.download_artifact(finished.artifact_id, tmp_path)
            assert path.read_bytes()[8:12] == b"WEBP"

            with pytest.raises(IntakeInvalid):
                await client.create_run("plan-research-report", {"depth": "enormous"})
            with pytest.raises(NotFound):
                await client.get_order("order-00000000")

    asyncio.run(main())


def test_the_async_client_labels_an_order_and_plans_it_once_under_a_key(base_url: str, api_key: str) -> None:
    async def main() -> None:
        async with AsyncAtelier(base_url, api_key) as client:
            tag = f"py-async-{uuid.uuid4().hex[:12]}"
            key = f"py-async-{uuid.uuid4().hex}"
            spec = {"resolver": "list", "params": {"items": [{"topic": "rails"}]}}
            options = {"intake_base": {"depth": "brief"}, "tags": [tag], "metadata": {"ticket": "PY-3"}, "idempotency_key": key}
            order = await client.create_order("plan-research-report", spec, **options)
            assert (await client.create_order("plan-research-report", spec, **options)).id == order.id
            children = await client.list_runs(tags=[tag], metadata={"ticket": "PY-3"})
            assert [r.parent_order_id for r in children.items] == [order.id]

    asyncio.run(main())
