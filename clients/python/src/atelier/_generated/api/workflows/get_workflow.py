from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.coded_error import CodedError
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow import Workflow
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/workflows/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AdminRequired | CodedError | MessageError | RequestValidationError | Workflow | None
):
    if response.status_code == 200:
        response_200 = Workflow.from_dict(response.json())

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
    AdminRequired | CodedError | MessageError | RequestValidationError | Workflow
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    AdminRequired | CodedError | MessageError | RequestValidationError | Workflow
]:
    """A workflow with its full, unredacted definition (live version, else newest draft)

     A workflow with its full, unredacted definition: the live version, else the newest draft. Any member
    of the workspace may call it; a workspace-bound API key reaching another workspace gets 403, and a
    resource outside the caller's workspaces is 404.

    Args:
        id (str):  Example: plan-garden-notes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | MessageError | RequestValidationError | Workflow]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
) -> (
    AdminRequired | CodedError | MessageError | RequestValidationError | Workflow | None
):
    """A workflow with its full, unredacted definition (live version, else newest draft)

     A workflow with its full, unredacted definition: the live version, else the newest draft. Any member
    of the workspace may call it; a workspace-bound API key reaching another workspace gets 403, and a
    resource outside the caller's workspaces is 404.

    Args:
        id (str):  Example: plan-garden-notes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | MessageError | RequestValidationError | Workflow
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    AdminRequired | CodedError | MessageError | RequestValidationError | Workflow
]:
    """A workflow with its full, unredacted definition (live version, else newest draft)

     A workflow with its full, unredacted definition: the live version, else the newest draft. Any member
    of the workspace may call it; a workspace-bound API key reaching another workspace gets 403, and a
    resource outside the caller's workspaces is 404.

    Args:
        id (str):  Example: plan-garden-notes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | MessageError | RequestValidationError | Workflow]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
) -> (
    AdminRequired | CodedError | MessageError | RequestValidationError | Workflow | None
):
    """A workflow with its full, unredacted definition (live version, else newest draft)

     A workflow with its full, unredacted definition: the live version, else the newest draft. Any member
    of the workspace may call it; a workspace-bound API key reaching another workspace gets 403, and a
    resource outside the caller's workspaces is 404.

    Args:
        id (str):  Example: plan-garden-notes.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | MessageError | RequestValidationError | Workflow
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
