"""Webhook verification: a real signed delivery from the gateway, and payloads signed right and wrong."""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks import Webhook

from atelier import Atelier, WebhookVerificationError, verify_webhook


def _secret() -> str:
    return "whsec_" + base64.b64encode(os.urandom(24)).decode()


def _signed(secret: str, body: str, msg_id: str = "msg_test", at: datetime | None = None) -> dict[str, str]:
    at = at or datetime.now(tz=UTC)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id, at, body),
    }


def test_a_correctly_signed_payload_verifies_and_a_wrong_one_does_not() -> None:
    secret = _secret()
    body = json.dumps({"type": "run.completed", "data": {"id": "run-1"}})
    headers = _signed(secret, body)
    assert verify_webhook(secret, body.encode(), headers) == json.loads(body)
    # Header names in any case, as frameworks give them.
    assert verify_webhook(secret, body, {k.title(): v for k, v in headers.items()})["type"] == "run.completed"

    with pytest.raises(WebhookVerificationError):
        verify_webhook(_secret(), body, headers)  # another secret
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, body.replace("run-1", "run-2"), headers)  # a changed body
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, body, {**headers, "webhook-signature": "v1,AAAA"})
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, body, {**headers, "webhook-signature": "garbage"})
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, body, {k: v for k, v in headers.items() if k != "webhook-id"})
    old = datetime.fromtimestamp(time.time() - 600, tz=UTC)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, body, _signed(secret, body, at=old))


def test_a_delivery_the_gateway_signs_verifies(client: Atelier, workspace_id: str) -> None:
    received: queue.Queue[tuple[bytes, dict[str, str]]] = queue.Queue()

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            received.put((body, {k: v for k, v in self.headers.items()}))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = None
    try:
        endpoint = client.request(
            "POST",
            "/v1/webhook-endpoints",
            json={
                "workspaceId": workspace_id,
                "url": f"http://127.0.0.1:{server.server_address[1]}/hooks",
                "events": ["run.completed"],
            },
        )
        client.request("POST", f"/v1/webhook-endpoints/{endpoint['id']}/test")
        body, headers = received.get(timeout=30)
        event = verify_webhook(endpoint["secret"], body, headers)
        assert event["type"] == "endpoint.test"
        assert event["data"]["id"] == endpoint["id"]
        with pytest.raises(WebhookVerificationError):
            verify_webhook(endpoint["secret"], body + b" ", headers)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(_secret(), body, headers)
    finally:
        if endpoint is not None:
            client.request("DELETE", f"/v1/webhook-endpoints/{endpoint['id']}")
        server.shutdown()
        server.server_close()
