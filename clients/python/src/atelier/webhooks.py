"""Verifying Atelier's webhooks (event webhooks and publication revalidation calls).

They are `Standard Webhooks <https://www.standardwebhooks.com>`_: headers ``webhook-id``,
``webhook-timestamp`` (unix seconds) and ``webhook-signature`` (``v1,<base64 HMAC-SHA256>`` entries, several
while a secret rotates) over ``{webhook-id}.{webhook-timestamp}.{raw body}``, keyed with the bytes of the
secret after ``whsec_``. The check is the ``standardwebhooks`` package's, which also refuses a timestamp more
than 5 minutes from now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standardwebhooks import Webhook
from standardwebhooks import WebhookVerificationError as _Refused
from standardwebhooks.webhooks import EmptyWebhookSecretError as _EmptySecret

__all__ = ["WebhookVerificationError", "verify_webhook"]


class WebhookVerificationError(Exception):
    """The delivery is not genuine (or too old, or malformed): answer it with 401 and do nothing else."""


def verify_webhook(secret: str, body: bytes | str, headers: Mapping[str, Any]) -> Any:
    """Checks a delivery and returns its parsed JSON body.

    Args:
        secret: The endpoint's (or publication's) secret, ``whsec_...``, as the API showed it once.
        body: The request body exactly as received (bytes, or the raw text): never re-serialised JSON.
        headers: The request headers (any mapping; names are matched case-insensitively).

    Raises:
        WebhookVerificationError: a missing or malformed header, a timestamp out of tolerance, or no matching signature.
    """
    # A header given as several values (some frameworks) is one space-separated list, as webhook-signature is.
    plain = {str(k).lower(): (" ".join(v) if isinstance(v, list | tuple) else str(v)) for k, v in headers.items()}
    try:
        return Webhook(secret).verify(body, plain)
    # Its refusals, and what a malformed secret, signature entry ("v1" without a comma) or body raises.
    except (_Refused, _EmptySecret, ValueError, TypeError) as err:
        raise WebhookVerificationError(str(err) or type(err).__name__) from None
