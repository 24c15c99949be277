from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.bulk_rerun_dry_run import BulkRerunDryRun
from ...models.bulk_rerun_request import BulkRerunRequest
from ...models.bulk_rerun_result import BulkRerunResult
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: BulkRerunRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/runs/bulk-rerun",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BulkRerunDryRun
    | BulkRerunResult
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | None
):
    if response.status_code == 200:

        def _parse_response_200(data: object) -> BulkRerunDryRun | BulkRerunResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = BulkRerunResult.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = BulkRerunDryRun.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = MessageError.from_dict(response.json())

        return response_401

    if response.status_code == 403:

        def _parse_response_403(
            data: object,
        ) -> AdminRequired | CodedError | MessageError:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_403_type_0 = AdminRequired.from_dict(data)

                return response_403_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_403_type_1 = CodedError.from_dict(data)

                return response_403_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_403_type_2 = MessageError.from_dict(data)

            return response_403_type_2

        response_403 = _parse_response_403(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = MessageError.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = MessageError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = MessageError.from_dict(response.json())

        return response_415

    if response.status_code == 422:

        def _parse_response_422(
            data: object,
        ) -> (
            CharacterNotUsable
            | CodedError
            | IntakeInvalid
            | KeyedInvalid
            | RequestValidationError
            | WorkflowInvalid
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_0 = RequestValidationError.from_dict(data)

                return response_422_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_1 = IntakeInvalid.from_dict(data)

                return response_422_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_2 = WorkflowInvalid.from_dict(data)

                return response_422_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_3 = KeyedInvalid.from_dict(data)

                return response_422_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_4 = CharacterNotUsable.from_dict(data)

                return response_422_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_422_type_5 = CodedError.from_dict(data)

            return response_422_type_5

        response_422 = _parse_response_422(response.json())

        return response_422

    if response.status_code == 503:
        response_503 = MessageError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BulkRerunDryRun
    | BulkRerunResult
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: BulkRerunRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BulkRerunDryRun
    | BulkRerunResult
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
]:
    """Rerun every run a filter chooses, or with dryRun price the reruns

     Each run is rerun as POST /v1/runs/{run_id}/rerun reruns one, with the same intake and providers
    overrides, one after another. A rerun refused is listed in failed with its status and detail; a 402
    from a budget ends the bulk rerun and the runs after it are skipped (reason budget). A filter
    matching more than limit runs is 422 bulk_limit_exceeded and nothing is done. Without an
    Idempotency-Key, sending the request again reruns the runs again (a filter by tag then also matches
    the first request's reruns). With one (a dry run ignores it), a retry with the same key and body in
    the same workspace within 24 hours creates nothing and answers the reruns the first request created,
    with Idempotent-Replayed: true (failed and skipped are not kept: empty, and matched counts the
    reruns); the same key with another body is 422 idempotency_key_reused. Keys are those of POST
    /v1/runs, in a space of their own: a bulk rerun never meets a run created under the same key.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (BulkRerunRequest): intake and providers apply to every rerun, each over its own
            original as a single rerun takes them Example: {'filter': {'status': 'failed',
            'templateId': 'plan-research-report'}, 'dryRun': True, 'limit': 50, 'intake': {'depth':
            'brief'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | BulkRerunDryRun | BulkRerunResult | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: BulkRerunRequest,
    idempotency_key: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BulkRerunDryRun
    | BulkRerunResult
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | None
):
    """Rerun every run a filter chooses, or with dryRun price the reruns

     Each run is rerun as POST /v1/runs/{run_id}/rerun reruns one, with the same intake and providers
    overrides, one after another. A rerun refused is listed in failed with its status and detail; a 402
    from a budget ends the bulk rerun and the runs after it are skipped (reason budget). A filter
    matching more than limit runs is 422 bulk_limit_exceeded and nothing is done. Without an
    Idempotency-Key, sending the request again reruns the runs again (a filter by tag then also matches
    the first request's reruns). With one (a dry run ignores it), a retry with the same key and body in
    the same workspace within 24 hours creates nothing and answers the reruns the first request created,
    with Idempotent-Replayed: true (failed and skipped are not kept: empty, and matched counts the
    reruns); the same key with another body is 422 idempotency_key_reused. Keys are those of POST
    /v1/runs, in a space of their own: a bulk rerun never meets a run created under the same key.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (BulkRerunRequest): intake and providers apply to every rerun, each over its own
            original as a single rerun takes them Example: {'filter': {'status': 'failed',
            'templateId': 'plan-research-report'}, 'dryRun': True, 'limit': 50, 'intake': {'depth':
            'brief'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | BulkRerunDryRun | BulkRerunResult | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BulkRerunRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BulkRerunDryRun
    | BulkRerunResult
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
]:
    """Rerun every run a filter chooses, or with dryRun price the reruns

     Each run is rerun as POST /v1/runs/{run_id}/rerun reruns one, with the same intake and providers
    overrides, one after another. A rerun refused is listed in failed with its status and detail; a 402
    from a budget ends the bulk rerun and the runs after it are skipped (reason budget). A filter
    matching more than limit runs is 422 bulk_limit_exceeded and nothing is done. Without an
    Idempotency-Key, sending the request again reruns the runs again (a filter by tag then also matches
    the first request's reruns). With one (a dry run ignores it), a retry with the same key and body in
    the same workspace within 24 hours creates nothing and answers the reruns the first request created,
    with Idempotent-Replayed: true (failed and skipped are not kept: empty, and matched counts the
    reruns); the same key with another body is 422 idempotency_key_reused. Keys are those of POST
    /v1/runs, in a space of their own: a bulk rerun never meets a run created under the same key.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (BulkRerunRequest): intake and providers apply to every rerun, each over its own
            original as a single rerun takes them Example: {'filter': {'status': 'failed',
            'templateId': 'plan-research-report'}, 'dryRun': True, 'limit': 50, 'intake': {'depth':
            'brief'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | BulkRerunDryRun | BulkRerunResult | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: BulkRerunRequest,
    idempotency_key: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BulkRerunDryRun
    | BulkRerunResult
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | None
):
    """Rerun every run a filter chooses, or with dryRun price the reruns

     Each run is rerun as POST /v1/runs/{run_id}/rerun reruns one, with the same intake and providers
    overrides, one after another. A rerun refused is listed in failed with its status and detail; a 402
    from a budget ends the bulk rerun and the runs after it are skipped (reason budget). A filter
    matching more than limit runs is 422 bulk_limit_exceeded and nothing is done. Without an
    Idempotency-Key, sending the request again reruns the runs again (a filter by tag then also matches
    the first request's reruns). With one (a dry run ignores it), a retry with the same key and body in
    the same workspace within 24 hours creates nothing and answers the reruns the first request created,
    with Idempotent-Replayed: true (failed and skipped are not kept: empty, and matched counts the
    reruns); the same key with another body is 422 idempotency_key_reused. Keys are those of POST
    /v1/runs, in a space of their own: a bulk rerun never meets a run created under the same key.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (BulkRerunRequest): intake and providers apply to every rerun, each over its own
            original as a single rerun takes them Example: {'filter': {'status': 'failed',
            'templateId': 'plan-research-report'}, 'dryRun': True, 'limit': 50, 'intake': {'depth':
            'brief'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | BulkRerunDryRun | BulkRerunResult | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
