from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.brand import Brand
from ...models.brand_profile_patch import BrandProfilePatch
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.etag_mismatch import EtagMismatch
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    project_id: UUID,
    *,
    body: BrandProfilePatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/brands/{project_id}".format(
            project_id=quote(str(project_id), safe=""),
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
    | Brand
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | None
):
    if response.status_code == 200:
        response_200 = Brand.from_dict(response.json())

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
    | Brand
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BrandProfilePatch,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | Brand
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
]:
    """Edit the working copy (owners and admins); published snapshots never change

     Top-level fields replace; voice and visual merge one level deep. An etag (body or If-Match) is
    optional; a stale one is 409 etag_mismatch.

    Args:
        project_id (UUID):
        body (BrandProfilePatch):  Example: {'voice': {'tone': 'warm, plain-spoken and a little
            playful'}, 'visual': {'colors': ['#F2A900', '#1B1B1B', '#FFFFFF']}, 'etag':
            '"c1d9f4a2b7"'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BrandProfilePatch,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | Brand
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | None
):
    """Edit the working copy (owners and admins); published snapshots never change

     Top-level fields replace; voice and visual merge one level deep. An etag (body or If-Match) is
    optional; a stale one is 409 etag_mismatch.

    Args:
        project_id (UUID):
        body (BrandProfilePatch):  Example: {'voice': {'tone': 'warm, plain-spoken and a little
            playful'}, 'visual': {'colors': ['#F2A900', '#1B1B1B', '#FFFFFF']}, 'etag':
            '"c1d9f4a2b7"'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError
    """

    return sync_detailed(
        project_id=project_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BrandProfilePatch,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | Brand
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
]:
    """Edit the working copy (owners and admins); published snapshots never change

     Top-level fields replace; voice and visual merge one level deep. An etag (body or If-Match) is
    optional; a stale one is 409 etag_mismatch.

    Args:
        project_id (UUID):
        body (BrandProfilePatch):  Example: {'voice': {'tone': 'warm, plain-spoken and a little
            playful'}, 'visual': {'colors': ['#F2A900', '#1B1B1B', '#FFFFFF']}, 'etag':
            '"c1d9f4a2b7"'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError]
    """

    kwargs = _get_kwargs(
        project_id=project_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    project_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BrandProfilePatch,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | Brand
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | None
):
    """Edit the working copy (owners and admins); published snapshots never change

     Top-level fields replace; voice and visual merge one level deep. An etag (body or If-Match) is
    optional; a stale one is 409 etag_mismatch.

    Args:
        project_id (UUID):
        body (BrandProfilePatch):  Example: {'voice': {'tone': 'warm, plain-spoken and a little
            playful'}, 'visual': {'colors': ['#F2A900', '#1B1B1B', '#FFFFFF']}, 'etag':
            '"c1d9f4a2b7"'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError
    """

    return (
        await asyncio_detailed(
            project_id=project_id,
            client=client,
            body=body,
        )
    ).parsed
