from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.estimate_request import EstimateRequest
from ...models.estimate_response import EstimateResponse
from ...models.etag_mismatch import EtagMismatch
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    *,
    body: EstimateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/workflows/estimate",
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
    | EstimateResponse
    | MessageError
    | None
):
    if response.status_code == 200:
        response_200 = EstimateResponse.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = MessageError.from_dict(response.json())

        return response_401

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
    | EstimateResponse
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
    body: EstimateRequest,
) -> Response[
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | EstimateResponse
    | MessageError
]:
    """Price draft runtimeSteps on their provider bindings

     highCost: the typical estimate is above budgetPolicy.perRunCapUsd, or above 1 USD without a cap.
    Unregistered models and unbound roles are 422 workflow_invalid.

    Args:
        body (EstimateRequest):  Example: {'runtimeSteps': [{'id': 'step-1', 'name': 'Outline',
            'kind': 'llm', 'role': 'researcher', 'capability': 'text'}], 'providers': {'researcher':
            'anthropic/claude-haiku-4-5'}, 'budgetPolicy': {'perRunCapUsd': 2}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | EstimateResponse | MessageError]
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
    body: EstimateRequest,
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | EstimateResponse
    | MessageError
    | None
):
    """Price draft runtimeSteps on their provider bindings

     highCost: the typical estimate is above budgetPolicy.perRunCapUsd, or above 1 USD without a cap.
    Unregistered models and unbound roles are 422 workflow_invalid.

    Args:
        body (EstimateRequest):  Example: {'runtimeSteps': [{'id': 'step-1', 'name': 'Outline',
            'kind': 'llm', 'role': 'researcher', 'capability': 'text'}], 'providers': {'researcher':
            'anthropic/claude-haiku-4-5'}, 'budgetPolicy': {'perRunCapUsd': 2}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | EstimateResponse | MessageError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EstimateRequest,
) -> Response[
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | EstimateResponse
    | MessageError
]:
    """Price draft runtimeSteps on their provider bindings

     highCost: the typical estimate is above budgetPolicy.perRunCapUsd, or above 1 USD without a cap.
    Unregistered models and unbound roles are 422 workflow_invalid.

    Args:
        body (EstimateRequest):  Example: {'runtimeSteps': [{'id': 'step-1', 'name': 'Outline',
            'kind': 'llm', 'role': 'researcher', 'capability': 'text'}], 'providers': {'researcher':
            'anthropic/claude-haiku-4-5'}, 'budgetPolicy': {'perRunCapUsd': 2}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | EstimateResponse | MessageError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: EstimateRequest,
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | EstimateResponse
    | MessageError
    | None
):
    """Price draft runtimeSteps on their provider bindings

     highCost: the typical estimate is above budgetPolicy.perRunCapUsd, or above 1 USD without a cap.
    Unregistered models and unbound roles are 422 workflow_invalid.

    Args:
        body (EstimateRequest):  Example: {'runtimeSteps': [{'id': 'step-1', 'name': 'Outline',
            'kind': 'llm', 'role': 'researcher', 'capability': 'text'}], 'providers': {'researcher':
            'anthropic/claude-haiku-4-5'}, 'budgetPolicy': {'perRunCapUsd': 2}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | EstimateResponse | MessageError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
