from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.coded_error import CodedError
from ...models.etag_mismatch import EtagMismatch
from ...models.message_error import MessageError
from ...models.order import Order
from ...models.request_validation_error import RequestValidationError
from ...types import Response


def _get_kwargs(
    order_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/orders/{order_id}/cancel".format(
            order_id=quote(str(order_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | EtagMismatch
    | Order
    | RequestValidationError
    | None
):
    if response.status_code == 200:
        response_200 = Order.from_dict(response.json())

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

    if response.status_code == 422:
        response_422 = RequestValidationError.from_dict(response.json())

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
    | EtagMismatch
    | Order
    | RequestValidationError
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    order_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | EtagMismatch
    | Order
    | RequestValidationError
]:
    """Cancel an order: no new children start; those in flight stop at their next step boundary

     Cancels an order: no new children start and those in flight stop at their next step boundary; spend
    so far stays billed. Any member of the workspace may call it; a workspace-bound API key reaching
    another workspace gets 403, and a resource outside the caller's workspaces is 404. An order that
    already ended is 409 invalid_transition.

    Args:
        order_id (str):  Example: order-0123456789abcdef.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | Order | RequestValidationError]
    """

    kwargs = _get_kwargs(
        order_id=order_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    order_id: str,
    *,
    client: AuthenticatedClient,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | EtagMismatch
    | Order
    | RequestValidationError
    | None
):
    """Cancel an order: no new children start; those in flight stop at their next step boundary

     Cancels an order: no new children start and those in flight stop at their next step boundary; spend
    so far stays billed. Any member of the workspace may call it; a workspace-bound API key reaching
    another workspace gets 403, and a resource outside the caller's workspaces is 404. An order that
    already ended is 409 invalid_transition.

    Args:
        order_id (str):  Example: order-0123456789abcdef.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | Order | RequestValidationError
    """

    return sync_detailed(
        order_id=order_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    order_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | EtagMismatch
    | Order
    | RequestValidationError
]:
    """Cancel an order: no new children start; those in flight stop at their next step boundary

     Cancels an order: no new children start and those in flight stop at their next step boundary; spend
    so far stays billed. Any member of the workspace may call it; a workspace-bound API key reaching
    another workspace gets 403, and a resource outside the caller's workspaces is 404. An order that
    already ended is 409 invalid_transition.

    Args:
        order_id (str):  Example: order-0123456789abcdef.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | Order | RequestValidationError]
    """

    kwargs = _get_kwargs(
        order_id=order_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    order_id: str,
    *,
    client: AuthenticatedClient,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | EtagMismatch
    | Order
    | RequestValidationError
    | None
):
    """Cancel an order: no new children start; those in flight stop at their next step boundary

     Cancels an order: no new children start and those in flight stop at their next step boundary; spend
    so far stays billed. Any member of the workspace may call it; a workspace-bound API key reaching
    another workspace gets 403, and a resource outside the caller's workspaces is 404. An order that
    already ended is 409 invalid_transition.

    Args:
        order_id (str):  Example: order-0123456789abcdef.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CodedError | EtagMismatch | MessageError | Order | RequestValidationError
    """

    return (
        await asyncio_detailed(
            order_id=order_id,
            client=client,
        )
    ).parsed
