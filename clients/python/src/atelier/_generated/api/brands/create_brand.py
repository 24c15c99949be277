from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.brand import Brand
from ...models.brand_create_request import BrandCreateRequest
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    *,
    body: BrandCreateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/brands",
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
    | None
):
    if response.status_code == 201:
        response_201 = Brand.from_dict(response.json())

        return response_201

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
    body: BrandCreateRequest,
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
]:
    """Create a brand: a project of kind brand and its profile, together (owners and admins)

     Creates a brand: a project of kind brand and its profile, together; the answer carries the etag in
    the ETag header and the etag field. Owners and admins only: a member gets 403 admin_required.

    Args:
        body (BrandCreateRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'name': 'Acme Honey', 'description': 'Raw honey
            from city rooftops', 'profile': {'voice': {'tone': 'warm and plain-spoken', 'keywords':
            ['local', 'raw', 'seasonal']}, 'visual': {'colors': ['#F2A900', '#1B1B1B'], 'fonts': [],
            'logoArtifactId': None}, 'audience': 'City dwellers who shop at farmers markets',
            'guidelines': 'Never call the honey organic.'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError]
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
    body: BrandCreateRequest,
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
    | None
):
    """Create a brand: a project of kind brand and its profile, together (owners and admins)

     Creates a brand: a project of kind brand and its profile, together; the answer carries the etag in
    the ETag header and the etag field. Owners and admins only: a member gets 403 admin_required.

    Args:
        body (BrandCreateRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'name': 'Acme Honey', 'description': 'Raw honey
            from city rooftops', 'profile': {'voice': {'tone': 'warm and plain-spoken', 'keywords':
            ['local', 'raw', 'seasonal']}, 'visual': {'colors': ['#F2A900', '#1B1B1B'], 'fonts': [],
            'logoArtifactId': None}, 'audience': 'City dwellers who shop at farmers markets',
            'guidelines': 'Never call the honey organic.'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BrandCreateRequest,
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
]:
    """Create a brand: a project of kind brand and its profile, together (owners and admins)

     Creates a brand: a project of kind brand and its profile, together; the answer carries the etag in
    the ETag header and the etag field. Owners and admins only: a member gets 403 admin_required.

    Args:
        body (BrandCreateRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'name': 'Acme Honey', 'description': 'Raw honey
            from city rooftops', 'profile': {'voice': {'tone': 'warm and plain-spoken', 'keywords':
            ['local', 'raw', 'seasonal']}, 'visual': {'colors': ['#F2A900', '#1B1B1B'], 'fonts': [],
            'logoArtifactId': None}, 'audience': 'City dwellers who shop at farmers markets',
            'guidelines': 'Never call the honey organic.'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: BrandCreateRequest,
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
    | None
):
    """Create a brand: a project of kind brand and its profile, together (owners and admins)

     Creates a brand: a project of kind brand and its profile, together; the answer carries the etag in
    the ETag header and the etag field. Owners and admins only: a member gets 403 admin_required.

    Args:
        body (BrandCreateRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'name': 'Acme Honey', 'description': 'Raw honey
            from city rooftops', 'profile': {'voice': {'tone': 'warm and plain-spoken', 'keywords':
            ['local', 'raw', 'seasonal']}, 'visual': {'colors': ['#F2A900', '#1B1B1B'], 'fonts': [],
            'logoArtifactId': None}, 'audience': 'City dwellers who shop at farmers markets',
            'guidelines': 'Never call the honey organic.'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | Brand | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
