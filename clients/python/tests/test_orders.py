"""Orders: created, started and followed until they settle."""

from __future__ import annotations

import uuid

import pytest

from atelier import Atelier, UnprocessableEntity, models


def test_an_order_is_created_started_and_followed(client: Atelier) -> None:
    order = client.create_order(
        "plan-research-report",
        {"resolver": "list", "params": {"items": [{"topic": "owls"}, {"topic": "larks"}]}},
        intake_base={"depth": "brief"},
    )
    assert isinstance(order, models.Order)
    assert order.status == "planned"
    started = client.start_order(order.id)
    assert started.id == order.id

    seen: list[str] = []
    settled = client.follow_order(order.id, poll_interval=0.2, timeout=90, on_progress=lambda o: seen.append(str(o.status)))
    assert settled.status == "completed"
    assert settled.counts.succeeded == 2
    assert seen[-1] == "completed"
    children = client.list_runs(parent_order_id=order.id)
    assert children.total == 2


def test_a_variation_spec_model_is_accepted(client: Atelier) -> None:
    spec = models.VariationSpecList(
        resolver=models.VariationSpecListResolver.LIST,
        params=models.VariationSpecListParams(items=[models.VariationSpecListParamsItemsItem.from_dict({"topic": "wrens"})]),
    )
    order = client.create_order("plan-research-report", spec, intake_base={"depth": "brief"})
    assert order.target_count == 1


def test_an_order_labels_its_runs_and_is_planned_once_under_a_key(client: Atelier) -> None:
    tag = f"py-order-{uuid.uuid4().hex[:12]}"
    key = f"py-order-{uuid.uuid4().hex}"
    spec = {"resolver": "list", "params": {"items": [{"topic": "grebes"}, {"topic": "coots"}]}}
    order = client.create_order(
        "plan-research-report",
        spec,
        intake_base={"depth": "brief"},
        tags=(tag,),
        metadata={"ticket": "PY-2"},
        idempotency_key=key,
    )
    children = client.list_runs(parent_order_id=order.id)
    assert children.total == 2
    assert all(r.tags == [tag] and r.metadata.to_dict() == {"ticket": "PY-2"} for r in children.items)

    # A retry with the same key and arguments plans nothing more: the first order comes back.
    again = client.create_order(
        "plan-research-report", spec, intake_base={"depth": "brief"}, tags=[tag], metadata={"ticket": "PY-2"}, idempotency_key=key
    )
    assert again.id == order.id
    assert client.list_runs(tags=[tag]).total == 2
    with pytest.raises(UnprocessableEntity) as refused:
        client.create_order("plan-research-report", spec, intake_base={"depth": "brief"}, tags=[tag], idempotency_key=key)
    assert refused.value.code == "idempotency_key_reused"
