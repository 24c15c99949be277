"""The asynchronous client, :class:`AsyncAtelier` (the same methods as :class:`atelier.Atelier`, awaited)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import aclosing
from datetime import datetime
from pathlib import Path
from typing import Any, Self

import httpx

from . import _base
from ._generated.client import AuthenticatedClient
from ._generated.models import Artifact, Order, Run, RunList
from .errors import AtelierError
from .events import SETTLED_ORDER_STATUSES, TERMINAL_RUN_STATUSES, RunEvent, SSEDecoder

__all__ = ["AsyncAtelier"]


class AsyncAtelier:
    """An asyncio client of the Atelier API (on ``httpx.AsyncClient``); see :class:`atelier.Atelier`.

    Args:
        base_url: The gateway's origin, e.g. ``https://atelier.example.com`` (each path carries ``/v1``).
        api_key: An API key (``atl_...``) or a session access token, sent as ``Authorization: Bearer``.
        timeout: Seconds (or an ``httpx.Timeout``) for each ordinary request; 30 s by default.
        headers: Extra headers on every request.
        http_client: An ``httpx.AsyncClient`` of your own (proxies, transports, tests); its base URL and
            authorization are set from ``base_url`` and ``api_key``.

    Every method returns the generated model of the answer (``atelier.models.Run``, ``Order``, ...) and
    raises an :class:`atelier.AtelierError` subclass for a non-2xx answer. Use it as ``async with``, or
    await :meth:`close`.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float | httpx.Timeout = _base.DEFAULT_TIMEOUT,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url: str = base_url.rstrip("/")
        self._api_key = api_key
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        self._http.base_url = httpx.URL(self.base_url)
        self._http.headers.update(_base.client_headers(api_key, headers))
        self._files = httpx.AsyncClient(timeout=timeout, follow_redirects=True, headers={"user-agent": _base.USER_AGENT})

    # --- plumbing -----------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._http.aclose()
        await self._files.aclose()

    async def _send(self, call: _base.Call) -> Any:
        response = await self._http.request(call.method, call.path, json=call.json, params=call.params, headers=call.headers)
        return _base.decode(response, call.parse)

    async def request(self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None) -> Any:
        """Any endpoint of the API (``/v1/...``): its decoded JSON, or a typed error. For what has no method here."""
        return await self._send(_base.Call(method.upper(), path, json=_base.body_of(json), params=params))

    @property
    def raw(self) -> AuthenticatedClient:
        """The generated low-level client, for the functions of ``atelier.api`` (every operation of the API)."""
        return AuthenticatedClient(base_url=self.base_url, token=self._api_key)

    # --- runs ---------------------------------------------------------------------------------

    async def create_run(
        self,
        template_id: str,
        intake: Mapping[str, Any],
        *,
        project_id: str | None = None,
        workspace_id: str | None = None,
        providers: Mapping[str, Any] | None = None,
        priority: str | None = None,
        idempotency_key: str | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> Run:
        """POST /v1/runs: starts a workflow (``template_id``) on an intake; the run comes back ``pending``.

        Raises :class:`IntakeInvalid` (422) when the intake does not fit, :class:`BudgetExceeded` (402) when a budget refuses it.
        """
        body = {
            "templateId": template_id,
            "intake": dict(intake),
            **_base.compact({"projectId": project_id, "workspaceId": workspace_id, "providers": providers, "priority": priority}),
            **_base.labels(tags, metadata),
        }
        headers = _base.idempotency_headers(idempotency_key)
        return await self._send(_base.Call("POST", "/v1/runs", json=body, headers=headers, parse=Run.from_dict))

    async def get_run(self, run_id: str) -> Run:
        """GET /v1/runs/{run_id}."""
        return await self._send(_base.Call("GET", f"/v1/runs/{_base.seg(run_id)}", parse=Run.from_dict))

    async def list_runs(
        self,
        *,
        status: str | None = None,
        project_id: str | None = None,
        workspace_id: str | None = None,
        parent_order_id: str | None = None,
        include_archived: bool | None = None,
        limit: int = 50,
        offset: int = 0,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, str] | None = None,
        template_id: str | None = None,
        created_after: datetime | str | None = None,
        created_before: datetime | str | None = None,
        q: str | None = None,
    ) -> RunList:
        """GET /v1/runs: one page (``items``, ``total``), newest first; ``tags`` all of them, ``metadata`` each key with its value.

        ``template_id`` one workflow's runs; ``created_after`` (inclusive) and ``created_before`` (exclusive) a window of
        creation instants (timezone-aware datetimes, or ISO 8601 strings with an offset); ``q`` runs whose id, workflow id
        or name, or one of whose tags, contains the text, case aside.
        """
        params = _base.compact(
            {
                "status": status,
                "projectId": project_id,
                "workspaceId": workspace_id,
                "parentOrderId": parent_order_id,
                "templateId": template_id,
                "createdAfter": _base.instant("created_after", created_after),
                "createdBefore": _base.instant("created_before", created_before),
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
        return await self._send(_base.Call("GET", "/v1/runs", params=params, parse=RunList.from_dict))

    async def cancel_run(self, run_id: str) -> Run:
        """POST /v1/runs/{run_id}/cancel: the run settles as ``cancelled`` at its next step boundary."""
        return await self._send(_base.Call("POST", f"/v1/runs/{_base.seg(run_id)}/cancel", parse=Run.from_dict))

    async def decide_review(
        self,
        run_id: str,
        decision: str,
        *,
        note: str | None = None,
        patch: Mapping[str, Any] | None = None,
        gate_id: str | None = None,
    ) -> Run:
        """POST /v1/queue/{run_id}/decision: ``approve``, ``reject`` or ``request_changes`` a run waiting in review.

        ``patch`` releases a typed hold on approval (exactly the fields the hold declared); ``gate_id``, when given,
        must be the gate the run waits on.
        """
        body = {"decision": decision, **_base.compact({"note": note, "patch": patch, "gateId": gate_id})}
        return await self._send(_base.Call("POST", f"/v1/queue/{_base.seg(run_id)}/decision", json=body, parse=Run.from_dict))

    async def stream_run_events(self, run_id: str, *, last_event_id: str | None = None) -> AsyncIterator[RunEvent]:
        """One connection to GET /v1/runs/{run_id}/events: yields its events until the server ends it.

        Pass the last ``id`` seen as ``last_event_id`` to resume after it. A broken connection raises
        ``httpx.TransportError``; :meth:`wait_for_run` reconnects for you.
        """
        async with self._http.stream(
            "GET",
            f"/v1/runs/{_base.seg(run_id)}/events",
            headers=_base.events_headers(last_event_id),
            timeout=_base.STREAM_TIMEOUT,
        ) as response:
            if response.status_code == 204:  # resumed after the end: nothing more
                return
            if response.status_code >= 400:
                await response.aread()
                _base.decode(response, lambda d: d)
            decoder = SSEDecoder()
            async for line in response.aiter_lines():
                event = decoder.feed(line)
                if event is not None:
                    yield event

    async def wait_for_run(
        self,
        run_id: str,
        *,
        timeout: float = 600.0,
        on_event: Callable[[RunEvent], None] | None = None,
    ) -> Run:
        """Follows the run's event stream until it reaches a terminal status, and returns the run.

        Terminal: ``completed``, ``review`` (waiting on a person), ``failed``, ``cancelled``, ``rejected``,
        ``changes_requested``. A stream that breaks or ends early is reopened with ``Last-Event-ID`` (so no
        event is seen twice or missed), after a short, growing pause. ``on_event`` gets every event.

        Raises:
            AtelierError: the API refused (e.g. :class:`NotFound` for an unknown run).
            TimeoutError: the run was not over within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        last_event_id: str | None = None
        failures = 0
        while True:
            try:
                async with aclosing(self.stream_run_events(run_id, last_event_id=last_event_id)) as events:
                    async for event in events:
                        if event.id is not None:
                            last_event_id = event.id
                        if on_event is not None:
                            on_event(event)
                        if event.is_terminal or time.monotonic() > deadline:
                            break
                failures = 0
            except AtelierError:
                raise
            except (httpx.TransportError, httpx.StreamError):
                failures += 1
            run = await self.get_run(run_id)
            if run.status in TERMINAL_RUN_STATUSES:
                return run
            if time.monotonic() > deadline:
                raise TimeoutError(f"run {run_id} did not end within {timeout} s (last status {run.status})")
            await asyncio.sleep(_base.backoff(failures))

    # --- orders -------------------------------------------------------------------------------

    async def create_order(
        self,
        workflow_id: str,
        variation_spec: Any,
        *,
        idempotency_key: str | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, str] | None = None,
        **options: Any,
    ) -> Order:
        """POST /v1/orders: many runs of one workflow, planned (``status`` ``planned``) until :meth:`start_order`.

        ``variation_spec`` is a dict (or a ``models.VariationSpecList`` / ``Matrix`` / ``Csv``), e.g.
        ``{"resolver": "list", "params": {"items": [{"topic": "owls"}, {"topic": "larks"}]}}``. ``tags`` and
        ``metadata`` label every child run, as on :meth:`create_run`. With ``idempotency_key`` a retry with the
        same arguments within 24 hours plans nothing and returns the order the first call planned; the key with
        other arguments raises :class:`UnprocessableEntity` (``idempotency_key_reused``). Options, in
        snake case: ``intake_base``, ``target_count``, ``budget_limit_usd``, ``budget_enforcement_mode``,
        ``project_id``, ``workspace_id``, ``workflow_version``, ``execution_mode``, ``priority``,
        ``max_concurrency``, ``provider_overrides``, ``plan_artifact_id``, ``order_dedupe_key``.
        """
        body = {
            "workflowId": workflow_id,
            "variationSpec": _base.body_of(variation_spec),
            **_base.order_options(options),
            **_base.labels(tags, metadata),
        }
        headers = _base.idempotency_headers(idempotency_key)
        return await self._send(_base.Call("POST", "/v1/orders", json=body, headers=headers, parse=Order.from_dict))

    async def start_order(self, order_id: str) -> Order:
        """POST /v1/orders/{order_id}/start. Raises :class:`BudgetExceeded` when a budget refuses it."""
        return await self._send(_base.Call("POST", f"/v1/orders/{_base.seg(order_id)}/start", parse=Order.from_dict))

    async def get_order(self, order_id: str) -> Order:
        """GET /v1/orders/{order_id}: its status, counts and costs."""
        return await self._send(_base.Call("GET", f"/v1/orders/{_base.seg(order_id)}", parse=Order.from_dict))

    async def follow_order(
        self,
        order_id: str,
        *,
        poll_interval: float = 1.0,
        timeout: float | None = None,
        on_progress: Callable[[Order], None] | None = None,
    ) -> Order:
        """Reads the order every ``poll_interval`` seconds until it settles (``completed``, ``attention``,
        ``failed``, ``cancelled``) and returns it; ``on_progress`` gets each read. Raises ``TimeoutError``
        after ``timeout`` seconds (no limit by default)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            order = await self.get_order(order_id)
            if on_progress is not None:
                on_progress(order)
            if order.status in SETTLED_ORDER_STATUSES:
                return order
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"order {order_id} did not settle within {timeout} s (last status {order.status})")
            await asyncio.sleep(poll_interval)

    # --- artifacts ----------------------------------------------------------------------------

    async def get_artifact(self, artifact_id: str) -> Artifact:
        """GET /v1/artifacts/{artifact_id}."""
        return await self._send(_base.Call("GET", f"/v1/artifacts/{_base.seg(artifact_id)}", parse=Artifact.from_dict))

    async def download_artifact(self, artifact_id: str, dest: str | Path, *, field: str = "url") -> Path:
        """Downloads the artifact's file (``content.url``; ``field="rawUrl"`` for the file before processing).

        ``dest`` is the file to write, or a directory to write it into under its storage name. The file URL is
        signed (a capability), so no credential goes with it; redirects (to cloud storage) are followed.
        Returns the path written. Raises ``ValueError`` for an artifact without a file (a text artifact).
        """
        url, name = _base.artifact_file(await self.get_artifact(artifact_id), field)
        target = _base.download_target(dest, name)
        partial = target.with_name(target.name + ".part")
        async with self._files.stream("GET", url) as response:
            if response.status_code >= 400:
                await response.aread()
                _base.decode(response, lambda d: d)
            with partial.open("wb") as out:
                async for chunk in response.aiter_bytes():
                    out.write(chunk)
        partial.replace(target)
        return target
