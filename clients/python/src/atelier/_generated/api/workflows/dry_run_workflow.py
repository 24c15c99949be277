from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.dry_run_request import DryRunRequest
from ...models.dry_run_response import DryRunResponse
from ...models.etag_mismatch import EtagMismatch
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    *,
    body: DryRunRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/workflows/dry-run",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | DryRunResponse
    | MessageError
    | None
):
    if response.status_code == 200:
        response_200 = DryRunResponse.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = MessageError.from_dict(response.json())

        return response_401

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
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | DryRunResponse
    | MessageError
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
    body: DryRunRequest,
) -> Response[
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | DryRunResponse
    | MessageError
]:
    """Check a draft definition (whole or partial) and an intake without saving or running anything

     Fields present are checked (shape and the rules that apply); absent template fields are warnings. A
    body with a templateId and no definition is accepted and ignored: ok, zero steps, a warning.
    Published workflows cannot be dry-run (409 workflow_published).

    Args:
        body (DryRunRequest): A draft WorkflowDefinition, whole or partial (intakeSchema,
            runtimeSteps, providers, gates, ...), plus intake Example: {'intakeSchema': {'fields':
            [{'name': 'topic', 'type': 'string', 'required': True, 'description': 'What the report is
            about'}]}, 'runtimeSteps': [{'id': 'step-1', 'name': 'Outline', 'kind': 'llm', 'role':
            'researcher', 'capability': 'text'}], 'intake': {'topic': 'urban beekeeping'},
            'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | DryRunResponse | MessageError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: DryRunRequest,
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | DryRunResponse
    | MessageError
    | None
):
    """Check a draft definition (whole or partial) and an intake without saving or running anything

     Fields present are checked (shape and the rules that apply); absent template fields are warnings. A
    body with a templateId and no definition is accepted and ignored: ok, zero steps, a warning.
    Published workflows cannot be dry-run (409 workflow_published).

    Args:
        body (DryRunRequest): A draft WorkflowDefinition, whole or partial (intakeSchema,
            runtimeSteps, providers, gates, ...), plus intake Example: {'intakeSchema': {'fields':
            [{'name': 'topic', 'type': 'string', 'required': True, 'description': 'What the report is
            about'}]}, 'runtimeSteps': [{'id': 'step-1', 'name': 'Outline', 'kind': 'llm', 'role':
            'researcher', 'capability': 'text'}], 'intake': {'topic': 'urban beekeeping'},
            'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | DryRunResponse | MessageError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: DryRunRequest,
) -> Response[
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | DryRunResponse
    | MessageError
]:
    """Check a draft definition (whole or partial) and an intake without saving or running anything

     Fields present are checked (shape and the rules that apply); absent template fields are warnings. A
    body with a templateId and no definition is accepted and ignored: ok, zero steps, a warning.
    Published workflows cannot be dry-run (409 workflow_published).

    Args:
        body (DryRunRequest): A draft WorkflowDefinition, whole or partial (intakeSchema,
            runtimeSteps, providers, gates, ...), plus intake Example: {'intakeSchema': {'fields':
            [{'name': 'topic', 'type': 'string', 'required': True, 'description': 'What the report is
            about'}]}, 'runtimeSteps': [{'id': 'step-1', 'name': 'Outline', 'kind': 'llm', 'role':
            'researcher', 'capability': 'text'}], 'intake': {'topic': 'urban beekeeping'},
            'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | DryRunResponse | MessageError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: DryRunRequest,
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | DryRunResponse
    | MessageError
    | None
):
    """Check a draft definition (whole or partial) and an intake without saving or running anything

     Fields present are checked (shape and the rules that apply); absent template fields are warnings. A
    body with a templateId and no definition is accepted and ignored: ok, zero steps, a warning.
    Published workflows cannot be dry-run (409 workflow_published).

    Args:
        body (DryRunRequest): A draft WorkflowDefinition, whole or partial (intakeSchema,
            runtimeSteps, providers, gates, ...), plus intake Example: {'intakeSchema': {'fields':
            [{'name': 'topic', 'type': 'string', 'required': True, 'description': 'What the report is
            about'}]}, 'runtimeSteps': [{'id': 'step-1', 'name': 'Outline', 'kind': 'llm', 'role':
            'researcher', 'capability': 'text'}], 'intake': {'topic': 'urban beekeeping'},
            'workspaceId': '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | DryRunResponse | MessageError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
