"""Fixtures for tests against a live gateway: ATELIER_URL and ATELIER_API_KEY (an owner's key) from the environment.

test/integration/python-sdk.test.ts starts the stack (gateway, worker, Temporal, PostgreSQL) and runs these.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from atelier import Atelier


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise pytest.UsageError(f"{name} is not set: these tests run against a live gateway (see clients/python/README.md)")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("ATELIER_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("ATELIER_API_KEY")


@pytest.fixture(scope="session")
def client(base_url: str, api_key: str) -> Iterator[Atelier]:
    with Atelier(base_url, api_key) as c:
        yield c


@pytest.fixture(scope="session")
def workspace_id(client: Atelier) -> str:
    given = os.environ.get("ATELIER_WORKSPACE_ID")
    if given:
        return given
    return client.request("GET", "/v1/workspaces")["items"][0]["id"]


@pytest.fixture()
def project_id(client: Atelier, workspace_id: str) -> str:
    """A project of its own, so what a test sets on it (a budget) touches no other test."""
    project = client.request("POST", f"/v1/workspaces/{workspace_id}/projects", json={"name": f"py-{uuid.uuid4().hex[:8]}"})
    return project["id"]
