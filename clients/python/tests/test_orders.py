"""Orders: created, started and followed until they settle."""

from __future__ import annotations

from atelier import Atelier, models


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
