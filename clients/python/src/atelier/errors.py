"""Typed errors of the Atelier API.

Every error body the API sends has a top-level ``detail``: a string (a message), an object (with a
``code`` naming the refusal, e.g. ``budget_exceeded``, ``intake_invalid``, ``etag_mismatch``) or an array
(request validation issues, each with ``type``, ``loc``, ``msg``). :class:`AtelierError` carries it as
``code``, ``message`` and ``details``; a subclass per status (and per domain code where it matters) lets
callers ``except`` what they handle::

    try:
        client.create_run("plan-research-report", {"topic": "tides"})
    except atelier.BudgetExceeded as err:
        print("over budget by", err.run_estimate_usd - err.remaining_usd)
    except atelier.IntakeInvalid as err:
        print("fix:", err.fields)
"""

from __future__ import annotations

from typing import Any, Generic, Never, Self, TypeVar, overload

import httpx

# atelier's __init__ re-exports exactly this list: an error class listed here is part of the package's API.
__all__ = [
    "AtelierError",
    "BadRequest",
    "BudgetExceeded",
    "Conflict",
    "Forbidden",
    "IntakeInvalid",
    "NotFound",
    "PayloadTooLarge",
    "PreconditionRequired",
    "RequestInvalid",
    "ServerError",
    "Unauthorized",
    "UnprocessableEntity",
]

_T = TypeVar("_T")


class AtelierError(Exception):
    """A non-2xx answer from the API.

    Attributes:
        status: The HTTP status.
        code: The refusal's code when ``detail`` is an object (``detail.code``, else ``detail.error``), else ``None``.
        message: A readable summary: ``detail`` when it is a string, ``detail.message`` when there is one,
            the validation messages joined when it is a list, else the code.
        details: ``detail`` as the API sent it (a dict, a list of validation issues, a string, or ``None``).
        body: The whole decoded body (or its text when it is not JSON).
        method, url: The request that was refused.
    """

    def __init__(
        self,
        status: int,
        *,
        code: str | None = None,
        message: str = "",
        details: Any = None,
        body: Any = None,
        method: str = "",
        url: str = "",
    ) -> None:
        self.status = status
        self.code = code
        self.message: str = message or (code or f"HTTP {status}")
        self.details = details
        self.body = body
        self.method = method
        self.url = url
        super().__init__(f"{method} {url} answered {status}: {self.message}".strip())


class BadRequest(AtelierError):
    """400: the target refuses the request (a deprecated template, an invalid provider override, ...)."""


class Unauthorized(AtelierError):
    """401: missing or invalid credentials."""


class _Detail(Generic[_T]):
    """A read-only attribute of an error: one key of its ``details`` object (``None`` when there is no such object or key)."""

    def __init__(self, key: str, doc: str | None = None) -> None:
        self.key = key
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, err: None, owner: type | None = None) -> Self: ...
    @overload
    def __get__(self, err: AtelierError, owner: type | None = None) -> _T | None: ...
    def __get__(self, err: AtelierError | None, owner: type | None = None) -> Self | _T | None:
        if err is None:
            return self
        return err.details.get(self.key) if isinstance(err.details, dict) else None

    # Read-only, as a property is: an assignment would otherwise hide what the API sent.
    def __set__(self, err: AtelierError, value: Never) -> None:
        raise AttributeError(f"{type(err).__name__}.{self.name} is read from details and cannot be set")


class BudgetExceeded(AtelierError):
    """402 ``budget_exceeded``: a budget refused the run or the order's start before anything was spent."""

    reason: _Detail[str] = _Detail(
        "reason", "per_run_cap_exceeded, hard_stop, allow_overage_exceeded or allow_one_more_exhausted."
    )
    budget_id: _Detail[str] = _Detail("budgetId")
    scope: _Detail[str] = _Detail("scope")
    enforcement_mode: _Detail[str] = _Detail("enforcementMode")
    limit_usd: _Detail[float] = _Detail("limitUsd")
    spend_usd: _Detail[float] = _Detail("spendUsd")
    run_estimate_usd: _Detail[float] = _Detail("runEstimateUsd")
    remaining_usd: _Detail[float] = _Detail("remainingUsd")


class Forbidden(AtelierError):
    """403: not permitted in this workspace (``admin_required`` when a member tried to change something)."""


class NotFound(AtelierError):
    """404: no such resource, or not in the caller's workspace."""


class Conflict(AtelierError):
    """409: a conflict (``etag_mismatch``, ``request_id_reused``, ``invalid_transition``, ...)."""


class PayloadTooLarge(AtelierError):
    """413: the body is over the gateway's limit."""


class UnprocessableEntity(AtelierError):
    """422: the request was understood but refused (see :class:`IntakeInvalid`, :class:`RequestInvalid`)."""


class IntakeInvalid(UnprocessableEntity):
    """422 ``intake_invalid``: the intake does not fit the workflow. A refused run costs nothing."""

    @property
    def fields(self) -> list[str]:
        """One plain-language sentence per bad input."""
        value = self.details.get("fields") if isinstance(self.details, dict) else None
        return list(value) if isinstance(value, list) else []

    @property
    def variations(self) -> list[dict[str, Any]]:
        """For an order: the variations refused, each with its own fields."""
        value = self.details.get("variations") if isinstance(self.details, dict) else None
        return list(value) if isinstance(value, list) else []


class RequestInvalid(UnprocessableEntity):
    """422 with a list of validation issues (``type``, ``loc``, ``msg``, ``input``): the request's shape is wrong."""

    @property
    def issues(self) -> list[dict[str, Any]]:
        return list(self.details) if isinstance(self.details, list) else []


class PreconditionRequired(AtelierError):
    """428 ``etag_required``: an edit needs the etag of what it changes."""


class ServerError(AtelierError):
    """5xx: a server fault. Reads can be retried with backoff; POSTs are not retried blindly."""


_BY_STATUS: dict[int, type[AtelierError]] = {
    400: BadRequest,
    401: Unauthorized,
    402: BudgetExceeded,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: UnprocessableEntity,
    428: PreconditionRequired,
}


def _summary(detail: Any, code: str | None) -> str:
    if isinstance(detail, str):
        return detail
    if isinstance(detail, dict):
        message = detail.get("message")
        if isinstance(message, str) and message:
            return message
        fields = detail.get("fields")
        if isinstance(fields, list) and fields:
            return f"{code}: " + "; ".join(str(f) for f in fields)
        return code or ""
    if isinstance(detail, list):
        parts = []
        for issue in detail:
            if isinstance(issue, dict):
                loc = ".".join(str(p) for p in issue.get("loc", []) or [])
                parts.append(f"{loc}: {issue.get('msg', '')}" if loc else str(issue.get("msg", "")))
        return "; ".join(parts)
    return ""


def error_from_response(response: httpx.Response, body: Any = None) -> AtelierError:
    """The typed error for a non-2xx response (its body decoded already, or read here)."""
    if body is None:
        try:
            body = response.json()
        except ValueError:
            body = response.text
    detail = body.get("detail") if isinstance(body, dict) else body
    code: str | None = None
    if isinstance(detail, dict):
        raw = detail.get("code") or detail.get("error")
        code = raw if isinstance(raw, str) else None
    status = response.status_code
    if status == 422 and code == "intake_invalid":
        cls: type[AtelierError] = IntakeInvalid
    elif status == 422 and isinstance(detail, list):
        cls = RequestInvalid
    elif status >= 500:
        cls = ServerError
    else:
        cls = _BY_STATUS.get(status, AtelierError)
    return cls(
        status,
        code=code,
        message=_summary(detail, code),
        details=detail,
        body=body,
        method=response.request.method,
        url=str(response.request.url),
    )
