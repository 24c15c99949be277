"""Refusals arrive as typed errors carrying the contract's error shape."""

from __future__ import annotations

import pytest

from atelier import Atelier, AtelierError, BudgetExceeded, IntakeInvalid, RequestInvalid, UnprocessableEntity


def test_an_invalid_intake_raises_intake_invalid(client: Atelier) -> None:
    with pytest.raises(IntakeInvalid) as caught:
        client.create_run("plan-research-report", {"depth": "enormous", "extra": 1})
    err = caught.value
    assert isinstance(err, UnprocessableEntity) and isinstance(err, AtelierError)
    assert err.status == 422
    assert err.code == "intake_invalid"
    assert err.fields and all(isinstance(f, str) for f in err.fields)
    assert err.details["fields"] == err.fields
    assert "intake_invalid" in str(err)


def test_a_malformed_request_raises_request_invalid(client: Atelier) -> None:
    with pytest.raises(RequestInvalid) as caught:
        client.request("POST", "/v1/runs", json={"intake": {}})
    assert caught.value.status == 422
    assert any("templateId" in [str(p) for p in issue["loc"]] for issue in caught.value.issues)


def test_a_tiny_budget_raises_budget_exceeded(client: Atelier, workspace_id: str, project_id: str) -> None:
    budget = client.request(
        "POST",
        "/v1/budgets",
        json={
            "scope": "project",
            "workspaceId": workspace_id,
            "projectId": project_id,
            "limitUsd": 0,
            "period": "month",
            "enforcementMode": "hard_stop",
        },
    )
    with pytest.raises(BudgetExceeded) as caught:
        client.create_run("plan-research-report", {"topic": "refused"}, project_id=project_id)
    err = caught.value
    assert err.status == 402
    assert err.code == "budget_exceeded"
    assert err.reason == "hard_stop"
    assert err.budget_id == budget["id"]
    assert err.limit_usd == 0 and err.remaining_usd == 0
    assert err.run_estimate_usd is not None and err.run_estimate_usd > 0
    # An order in that project is refused the same way, as it is created.
    with pytest.raises(BudgetExceeded) as refused:
        client.create_order(
            "plan-research-report", {"resolver": "list", "params": {"items": [{"topic": "a"}]}}, project_id=project_id
        )
    assert refused.value.reason == "hard_stop"
