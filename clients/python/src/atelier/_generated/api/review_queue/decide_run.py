from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.etag_mismatch import EtagMismatch
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.queue_decision_request import QueueDecisionRequest
from ...models.request_validation_error import RequestValidationError
from ...models.run import Run
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    run_id: str,
    *,
    body: QueueDecisionRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/queue/{run_id}/decision".format(
            run_id=quote(str(run_id), safe=""),
        ),
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
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | Run
    | None
):
    if response.status_code == 200:
        response_200 = Run.from_dict(response.json())

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

    if response.status_code == 409:

        def _parse_response_409(data: object) -> CodedError | EtagMismatch:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_409_type_0 = EtagMismatch.from_dict(data)

                return response_409_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_409_type_1 = CodedError.from_dict(data)

            return response_409_type_1

        response_409 = _parse_response_409(response.json())

        return response_409

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
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
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
    body: QueueDecisionRequest,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | Run
]:
    """Approve, reject or request changes on a run in review; recorded in its decision ledger

     approve: run completed, artifact approved (refused with 409 approval_blocked while a QA check is at
    fail or pending; a typed hold needs a patch with exactly its fields, else 422 hold_patch_invalid or
    hold_value_invalid; the patch lands in the artifact content under hold). reject: run rejected,
    artifact rejected. request_changes: run changes_requested, artifact back to draft. A run not in
    review is 409 invalid_transition; a gateId other than the one the run waits on is 409 gate_mismatch.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        body (QueueDecisionRequest):  Example: {'decision': 'approve', 'note': 'Sources check out;
            ready to publish.'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Run]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: QueueDecisionRequest,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | Run
    | None
):
    """Approve, reject or request changes on a run in review; recorded in its decision ledger

     approve: run completed, artifact approved (refused with 409 approval_blocked while a QA check is at
    fail or pending; a typed hold needs a patch with exactly its fields, else 422 hold_patch_invalid or
    hold_value_invalid; the patch lands in the artifact content under hold). reject: run rejected,
    artifact rejected. request_changes: run changes_requested, artifact back to draft. A run not in
    review is 409 invalid_transition; a gateId other than the one the run waits on is 409 gate_mismatch.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        body (QueueDecisionRequest):  Example: {'decision': 'approve', 'note': 'Sources check out;
            ready to publish.'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Run
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: QueueDecisionRequest,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | Run
]:
    """Approve, reject or request changes on a run in review; recorded in its decision ledger

     approve: run completed, artifact approved (refused with 409 approval_blocked while a QA check is at
    fail or pending; a typed hold needs a patch with exactly its fields, else 422 hold_patch_invalid or
    hold_value_invalid; the patch lands in the artifact content under hold). reject: run rejected,
    artifact rejected. request_changes: run changes_requested, artifact back to draft. A run not in
    review is 409 invalid_transition; a gateId other than the one the run waits on is 409 gate_mismatch.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        body (QueueDecisionRequest):  Example: {'decision': 'approve', 'note': 'Sources check out;
            ready to publish.'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Run]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: QueueDecisionRequest,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | Run
    | None
):
    """Approve, reject or request changes on a run in review; recorded in its decision ledger

     approve: run completed, artifact approved (refused with 409 approval_blocked while a QA check is at
    fail or pending; a typed hold needs a patch with exactly its fields, else 422 hold_patch_invalid or
    hold_value_invalid; the patch lands in the artifact content under hold). reject: run rejected,
    artifact rejected. request_changes: run changes_requested, artifact back to draft. A run not in
    review is 409 invalid_transition; a gateId other than the one the run waits on is 409 gate_mismatch.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        body (QueueDecisionRequest):  Example: {'decision': 'approve', 'note': 'Sources check out;
            ready to publish.'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Run
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            body=body,
        )
    ).parsed
