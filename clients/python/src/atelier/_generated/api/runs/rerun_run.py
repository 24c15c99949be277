from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.budget_refusal import BudgetRefusal
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.rerun_dry_run import RerunDryRun
from ...models.rerun_request import RerunRequest
from ...models.run import Run
from ...models.template_deprecated import TemplateDeprecated
from ...models.workflow_invalid import WorkflowInvalid
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: str,
    *,
    body: RerunRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/runs/{run_id}/rerun".format(
            run_id=quote(str(run_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
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
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | RerunDryRun
    | Run
    | None
):
    if response.status_code == 200:
        response_200 = RerunDryRun.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Run.from_dict(response.json())

        return response_201

    if response.status_code == 400:

        def _parse_response_400(data: object) -> CodedError | TemplateDeprecated:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_400_type_0 = TemplateDeprecated.from_dict(data)

                return response_400_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_400_type_1 = CodedError.from_dict(data)

            return response_400_type_1

        response_400 = _parse_response_400(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = MessageError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = BudgetRefusal.from_dict(response.json())

        return response_402

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
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | RerunDryRun
    | Run
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: RerunRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | RerunDryRun
    | Run
]:
    """Start a new run of the same pinned workflow version as a run, with its intake and bindings,
    optionally overridden

     Creates a run as POST /v1/runs does (the same 400, 402, 403, 404 and 422 answers), from the original
    run's workflow, pinned version (even when a newer one is live), workspace, project, priority, intake
    and role bindings; the body's intake keys and provider roles replace the original's. The new run's
    rerunOf names the original; GET /v1/runs?rerunOf= lists an original's reruns. A child of an order or
    of a sub-workflow step is rerun as a standalone run, judged by workspace and project budgets.
    dryRun: true creates nothing and answers 200 with the estimate and the create body (a budget that
    would refuse answers 402, unrecorded). An Idempotency-Key works as on POST /v1/runs (keys are shared
    with it; a dry run ignores the key).

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (RerunRequest | Unset):  Example: {'intake': {'topic': 'rooftop beekeeping in
            winter'}, 'dryRun': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | RerunDryRun | Run]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: RerunRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | RerunDryRun
    | Run
    | None
):
    """Start a new run of the same pinned workflow version as a run, with its intake and bindings,
    optionally overridden

     Creates a run as POST /v1/runs does (the same 400, 402, 403, 404 and 422 answers), from the original
    run's workflow, pinned version (even when a newer one is live), workspace, project, priority, intake
    and role bindings; the body's intake keys and provider roles replace the original's. The new run's
    rerunOf names the original; GET /v1/runs?rerunOf= lists an original's reruns. A child of an order or
    of a sub-workflow step is rerun as a standalone run, judged by workspace and project budgets.
    dryRun: true creates nothing and answers 200 with the estimate and the create body (a budget that
    would refuse answers 402, unrecorded). An Idempotency-Key works as on POST /v1/runs (keys are shared
    with it; a dry run ignores the key).

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (RerunRequest | Unset):  Example: {'intake': {'topic': 'rooftop beekeeping in
            winter'}, 'dryRun': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | RerunDryRun | Run
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: RerunRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | RerunDryRun
    | Run
]:
    """Start a new run of the same pinned workflow version as a run, with its intake and bindings,
    optionally overridden

     Creates a run as POST /v1/runs does (the same 400, 402, 403, 404 and 422 answers), from the original
    run's workflow, pinned version (even when a newer one is live), workspace, project, priority, intake
    and role bindings; the body's intake keys and provider roles replace the original's. The new run's
    rerunOf names the original; GET /v1/runs?rerunOf= lists an original's reruns. A child of an order or
    of a sub-workflow step is rerun as a standalone run, judged by workspace and project budgets.
    dryRun: true creates nothing and answers 200 with the estimate and the create body (a budget that
    would refuse answers 402, unrecorded). An Idempotency-Key works as on POST /v1/runs (keys are shared
    with it; a dry run ignores the key).

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (RerunRequest | Unset):  Example: {'intake': {'topic': 'rooftop beekeeping in
            winter'}, 'dryRun': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | RerunDryRun | Run]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: RerunRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | RerunDryRun
    | Run
    | None
):
    """Start a new run of the same pinned workflow version as a run, with its intake and bindings,
    optionally overridden

     Creates a run as POST /v1/runs does (the same 400, 402, 403, 404 and 422 answers), from the original
    run's workflow, pinned version (even when a newer one is live), workspace, project, priority, intake
    and role bindings; the body's intake keys and provider roles replace the original's. The new run's
    rerunOf names the original; GET /v1/runs?rerunOf= lists an original's reruns. A child of an order or
    of a sub-workflow step is rerun as a standalone run, judged by workspace and project budgets.
    dryRun: true creates nothing and answers 200 with the estimate and the create body (a budget that
    would refuse answers 402, unrecorded). An Idempotency-Key works as on POST /v1/runs (keys are shared
    with it; a dry run ignores the key).

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (RerunRequest | Unset):  Example: {'intake': {'topic': 'rooftop beekeeping in
            winter'}, 'dryRun': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | RerunDryRun | Run
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
