from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.coded_error import CodedError
from ...models.etag_mismatch import EtagMismatch
from ...models.message_error import MessageError
from ...models.user import User
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/users/me/restore",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdminRequired | CodedError | MessageError | EtagMismatch | User | None:
    if response.status_code == 200:
        response_200 = User.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = MessageError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AdminRequired | CodedError | MessageError | EtagMismatch | User]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[AdminRequired | CodedError | MessageError | EtagMismatch | User]:
    """Withdraw your account deletion request while it is still pending

     Revoked API keys stay revoked. Once an operator has approved the request only the operator can
    reverse it (409).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | User]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> AdminRequired | CodedError | MessageError | EtagMismatch | User | None:
    """Withdraw your account deletion request while it is still pending

     Revoked API keys stay revoked. Once an operator has approved the request only the operator can
    reverse it (409).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | User
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[AdminRequired | CodedError | MessageError | EtagMismatch | User]:
    """Withdraw your account deletion request while it is still pending

     Revoked API keys stay revoked. Once an operator has approved the request only the operator can
    reverse it (409).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | User]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> AdminRequired | CodedError | MessageError | EtagMismatch | User | None:
    """Withdraw your account deletion request while it is still pending

     Revoked API keys stay revoked. Once an operator has approved the request only the operator can
    reverse it (409).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | User
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
