from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.catalog_workflow import CatalogWorkflow
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/catalog/workflows/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CatalogWorkflow | MessageError | RequestValidationError | None:
    if response.status_code == 200:
        response_200 = CatalogWorkflow.from_dict(response.json())

        return response_200

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
) -> Response[CatalogWorkflow | MessageError | RequestValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[CatalogWorkflow | MessageError | RequestValidationError]:
    """A public workflow: the complete intake contract, prompts and bindings redacted

     Public, no credential: the complete intake contract of a public workflow, with prompts and provider
    bindings redacted. A workflow that is not public is 404.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CatalogWorkflow | MessageError | RequestValidationError]
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
    client: AuthenticatedClient | Client,
) -> CatalogWorkflow | MessageError | RequestValidationError | None:
    """A public workflow: the complete intake contract, prompts and bindings redacted

     Public, no credential: the complete intake contract of a public workflow, with prompts and provider
    bindings redacted. A workflow that is not public is 404.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CatalogWorkflow | MessageError | RequestValidationError
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[CatalogWorkflow | MessageError | RequestValidationError]:
    """A public workflow: the complete intake contract, prompts and bindings redacted

     Public, no credential: the complete intake contract of a public workflow, with prompts and provider
    bindings redacted. A workflow that is not public is 404.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CatalogWorkflow | MessageError | RequestValidationError]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> CatalogWorkflow | MessageError | RequestValidationError | None:
    """A public workflow: the complete intake contract, prompts and bindings redacted

     Public, no credential: the complete intake contract of a public workflow, with prompts and provider
    bindings redacted. A workflow that is not public is 404.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CatalogWorkflow | MessageError | RequestValidationError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
