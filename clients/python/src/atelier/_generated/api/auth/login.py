from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.login_request import LoginRequest
from ...models.login_throttled import LoginThrottled
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.token_response import TokenResponse
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    *,
    body: LoginRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/auth/login",
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
    | LoginThrottled
    | MessageError
    | TokenResponse
    | None
):
    if response.status_code == 200:
        response_200 = TokenResponse.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = MessageError.from_dict(response.json())

        return response_401

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

    if response.status_code == 429:
        response_429 = LoginThrottled.from_dict(response.json())

        return response_429

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
    | LoginThrottled
    | MessageError
    | TokenResponse
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Response[
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | LoginThrottled
    | MessageError
    | TokenResponse
]:
    """Sign in with email and password

     Failed sign-ins are counted per account and per client address across all gateways. Past a budget of
    failures the account (or address) is refused with 429 and a Retry-After header for a back-off that
    doubles with each further failure, up to a cap (15 minutes by default); attempts refused that way
    are not counted. A successful sign-in starts the account's count over.

    Args:
        body (LoginRequest):  Example: {'email': 'ada@studio.example', 'password': 'correct-horse-
            battery-staple'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | LoginThrottled | MessageError | TokenResponse]
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
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | LoginThrottled
    | MessageError
    | TokenResponse
    | None
):
    """Sign in with email and password

     Failed sign-ins are counted per account and per client address across all gateways. Past a budget of
    failures the account (or address) is refused with 429 and a Retry-After header for a back-off that
    doubles with each further failure, up to a cap (15 minutes by default); attempts refused that way
    are not counted. A successful sign-in starts the account's count over.

    Args:
        body (LoginRequest):  Example: {'email': 'ada@studio.example', 'password': 'correct-horse-
            battery-staple'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | LoginThrottled | MessageError | TokenResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Response[
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | LoginThrottled
    | MessageError
    | TokenResponse
]:
    """Sign in with email and password

     Failed sign-ins are counted per account and per client address across all gateways. Past a budget of
    failures the account (or address) is refused with 429 and a Retry-After header for a back-off that
    doubles with each further failure, up to a cap (15 minutes by default); attempts refused that way
    are not counted. A successful sign-in starts the account's count over.

    Args:
        body (LoginRequest):  Example: {'email': 'ada@studio.example', 'password': 'correct-horse-
            battery-staple'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | LoginThrottled | MessageError | TokenResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> (
    CharacterNotUsable
    | CodedError
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | LoginThrottled
    | MessageError
    | TokenResponse
    | None
):
    """Sign in with email and password

     Failed sign-ins are counted per account and per client address across all gateways. Past a budget of
    failures the account (or address) is refused with 429 and a Retry-After header for a back-off that
    doubles with each further failure, up to a cap (15 minutes by default); attempts refused that way
    are not counted. A successful sign-in starts the account's count over.

    Args:
        body (LoginRequest):  Example: {'email': 'ada@studio.example', 'password': 'correct-horse-
            battery-staple'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | LoginThrottled | MessageError | TokenResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
