from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.consent_create_request import ConsentCreateRequest
from ...models.etag_mismatch import EtagMismatch
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.likeness_consent import LikenessConsent
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    subject_id: UUID,
    *,
    body: ConsentCreateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/subjects/{subject_id}/consents".format(
            subject_id=quote(str(subject_id), safe=""),
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
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | LikenessConsent
    | None
):
    if response.status_code == 201:
        response_201 = LikenessConsent.from_dict(response.json())

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
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | LikenessConsent
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    subject_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsentCreateRequest,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | LikenessConsent
]:
    """Record a likeness consent; it starts pending and allows nothing until activated

     Records a likeness consent (grantor, what it covers, scope, dates at most 10 years apart, evidence);
    it starts pending and allows nothing until activated. Owners and admins only (403 admin_required);
    an erased subject is 409 subject_erased.

    Args:
        subject_id (UUID):
        body (ConsentCreateRequest):  Example: {'grantor': 'subject', 'coversLikeness': True,
            'coversVoice': False, 'scope': {'uses': ['advertising'], 'media': ['image', 'video'],
            'channels': ['social'], 'territories': ['US', 'CA']}, 'startsOn': '2027-01-01', 'endsOn':
            '2028-12-31', 'evidenceKind': 'signed_release', 'evidenceSha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | LikenessConsent | MessageError]
    """

    kwargs = _get_kwargs(
        subject_id=subject_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subject_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsentCreateRequest,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | LikenessConsent
    | None
):
    """Record a likeness consent; it starts pending and allows nothing until activated

     Records a likeness consent (grantor, what it covers, scope, dates at most 10 years apart, evidence);
    it starts pending and allows nothing until activated. Owners and admins only (403 admin_required);
    an erased subject is 409 subject_erased.

    Args:
        subject_id (UUID):
        body (ConsentCreateRequest):  Example: {'grantor': 'subject', 'coversLikeness': True,
            'coversVoice': False, 'scope': {'uses': ['advertising'], 'media': ['image', 'video'],
            'channels': ['social'], 'territories': ['US', 'CA']}, 'startsOn': '2027-01-01', 'endsOn':
            '2028-12-31', 'evidenceKind': 'signed_release', 'evidenceSha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | LikenessConsent | MessageError
    """

    return sync_detailed(
        subject_id=subject_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    subject_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsentCreateRequest,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | LikenessConsent
]:
    """Record a likeness consent; it starts pending and allows nothing until activated

     Records a likeness consent (grantor, what it covers, scope, dates at most 10 years apart, evidence);
    it starts pending and allows nothing until activated. Owners and admins only (403 admin_required);
    an erased subject is 409 subject_erased.

    Args:
        subject_id (UUID):
        body (ConsentCreateRequest):  Example: {'grantor': 'subject', 'coversLikeness': True,
            'coversVoice': False, 'scope': {'uses': ['advertising'], 'media': ['image', 'video'],
            'channels': ['social'], 'territories': ['US', 'CA']}, 'startsOn': '2027-01-01', 'endsOn':
            '2028-12-31', 'evidenceKind': 'signed_release', 'evidenceSha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | LikenessConsent | MessageError]
    """

    kwargs = _get_kwargs(
        subject_id=subject_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subject_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsentCreateRequest,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | EtagMismatch
    | LikenessConsent
    | None
):
    """Record a likeness consent; it starts pending and allows nothing until activated

     Records a likeness consent (grantor, what it covers, scope, dates at most 10 years apart, evidence);
    it starts pending and allows nothing until activated. Owners and admins only (403 admin_required);
    an erased subject is 409 subject_erased.

    Args:
        subject_id (UUID):
        body (ConsentCreateRequest):  Example: {'grantor': 'subject', 'coversLikeness': True,
            'coversVoice': False, 'scope': {'uses': ['advertising'], 'media': ['image', 'video'],
            'channels': ['social'], 'territories': ['US', 'CA']}, 'startsOn': '2027-01-01', 'endsOn':
            '2028-12-31', 'evidenceKind': 'signed_release', 'evidenceSha256':
            '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | LikenessConsent | MessageError
    """

    return (
        await asyncio_detailed(
            subject_id=subject_id,
            client=client,
            body=body,
        )
    ).parsed
