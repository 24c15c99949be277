from http import HTTPStatus
from io import BytesIO
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    key: str,
    *,
    exp: str,
    sig: str,
    range_: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(range_, Unset):
        headers["range"] = range_

    params: dict[str, Any] = {}

    params["exp"] = exp

    params["sig"] = sig

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/files/{key}".format(
            key=quote(str(key), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | File | MessageError | RequestValidationError | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

        return response_200

    if response.status_code == 206:
        response_206 = cast(Any, None)
        return response_206

    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 403:
        response_403 = cast(Any, None)
        return response_403

    if response.status_code == 404:
        response_404 = cast(Any, None)
        return response_404

    if response.status_code == 416:
        response_416 = cast(Any, None)
        return response_416

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
) -> Response[Any | File | MessageError | RequestValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    key: str,
    *,
    client: AuthenticatedClient | Client,
    exp: str,
    sig: str,
    range_: str | Unset = UNSET,
) -> Response[Any | File | MessageError | RequestValidationError]:
    """An artifact's file by its signed URL (content.url: no credential, exp and sig in the query); local
    storage streams it with range support, GCS redirects

     Public: serves an artifact file through the signed URL found in content.url (exp and sig in the
    query), so no credential is needed. A missing or wrong signature is 404, an expired one 403 (read
    the artifact again for a fresh URL), and a range past the end 416.

    Args:
        key (str): The storage key, slashes included, for example
            artifacts/illustration/artifact-…/processed.webp Example:
            artifacts/illustration/artifact-0123456789abcdef/processed.webp.
        exp (str): When the URL dies, in unix seconds (part of content.url) Example: 1767225600.
        sig (str): base64url HMAC-SHA256 of the key and exp under the gateway secret (part of
            content.url) Example: q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c.
        range_ (str | Unset): One byte range: bytes=0-99, bytes=100- or bytes=-500

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | File | MessageError | RequestValidationError]
    """

    kwargs = _get_kwargs(
        key=key,
        exp=exp,
        sig=sig,
        range_=range_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    key: str,
    *,
    client: AuthenticatedClient | Client,
    exp: str,
    sig: str,
    range_: str | Unset = UNSET,
) -> Any | File | MessageError | RequestValidationError | None:
    """An artifact's file by its signed URL (content.url: no credential, exp and sig in the query); local
    storage streams it with range support, GCS redirects

     Public: serves an artifact file through the signed URL found in content.url (exp and sig in the
    query), so no credential is needed. A missing or wrong signature is 404, an expired one 403 (read
    the artifact again for a fresh URL), and a range past the end 416.

    Args:
        key (str): The storage key, slashes included, for example
            artifacts/illustration/artifact-…/processed.webp Example:
            artifacts/illustration/artifact-0123456789abcdef/processed.webp.
        exp (str): When the URL dies, in unix seconds (part of content.url) Example: 1767225600.
        sig (str): base64url HMAC-SHA256 of the key and exp under the gateway secret (part of
            content.url) Example: q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c.
        range_ (str | Unset): One byte range: bytes=0-99, bytes=100- or bytes=-500

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | File | MessageError | RequestValidationError
    """

    return sync_detailed(
        key=key,
        client=client,
        exp=exp,
        sig=sig,
        range_=range_,
    ).parsed


async def asyncio_detailed(
    key: str,
    *,
    client: AuthenticatedClient | Client,
    exp: str,
    sig: str,
    range_: str | Unset = UNSET,
) -> Response[Any | File | MessageError | RequestValidationError]:
    """An artifact's file by its signed URL (content.url: no credential, exp and sig in the query); local
    storage streams it with range support, GCS redirects

     Public: serves an artifact file through the signed URL found in content.url (exp and sig in the
    query), so no credential is needed. A missing or wrong signature is 404, an expired one 403 (read
    the artifact again for a fresh URL), and a range past the end 416.

    Args:
        key (str): The storage key, slashes included, for example
            artifacts/illustration/artifact-…/processed.webp Example:
            artifacts/illustration/artifact-0123456789abcdef/processed.webp.
        exp (str): When the URL dies, in unix seconds (part of content.url) Example: 1767225600.
        sig (str): base64url HMAC-SHA256 of the key and exp under the gateway secret (part of
            content.url) Example: q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c.
        range_ (str | Unset): One byte range: bytes=0-99, bytes=100- or bytes=-500

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | File | MessageError | RequestValidationError]
    """

    kwargs = _get_kwargs(
        key=key,
        exp=exp,
        sig=sig,
        range_=range_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    key: str,
    *,
    client: AuthenticatedClient | Client,
    exp: str,
    sig: str,
    range_: str | Unset = UNSET,
) -> Any | File | MessageError | RequestValidationError | None:
    """An artifact's file by its signed URL (content.url: no credential, exp and sig in the query); local
    storage streams it with range support, GCS redirects

     Public: serves an artifact file through the signed URL found in content.url (exp and sig in the
    query), so no credential is needed. A missing or wrong signature is 404, an expired one 403 (read
    the artifact again for a fresh URL), and a range past the end 416.

    Args:
        key (str): The storage key, slashes included, for example
            artifacts/illustration/artifact-…/processed.webp Example:
            artifacts/illustration/artifact-0123456789abcdef/processed.webp.
        exp (str): When the URL dies, in unix seconds (part of content.url) Example: 1767225600.
        sig (str): base64url HMAC-SHA256 of the key and exp under the gateway secret (part of
            content.url) Example: q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c.
        range_ (str | Unset): One byte range: bytes=0-99, bytes=100- or bytes=-500

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | File | MessageError | RequestValidationError
    """

    return (
        await asyncio_detailed(
            key=key,
            client=client,
            exp=exp,
            sig=sig,
            range_=range_,
        )
    ).parsed
