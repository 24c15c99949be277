from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.author_workflow_request import AuthorWorkflowRequest
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.etag_mismatch import EtagMismatch
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow import Workflow
from ...models.workflow_invalid import WorkflowInvalid
from ...types import Response


def _get_kwargs(
    *,
    body: AuthorWorkflowRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/workflows",
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
    | Workflow
    | None
):
    if response.status_code == 200:
        response_200 = Workflow.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Workflow.from_dict(response.json())

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
    | Workflow
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
    body: AuthorWorkflowRequest,
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
    | Workflow
]:
    """Create a workspace's workflow as a draft, or replace its current draft (owners and admins)

     Creates a workflow of the caller's workspace as a draft (201), or replaces its current draft (200);
    drafts are not in the catalog and do not execute. Owners and admins only (403 admin_required); an id
    used by another workflow is 409 workflow_id_taken, and a published version is frozen (409
    version_frozen).

    Args:
        body (AuthorWorkflowRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'definition': {'id': 'plan-bee-guide', 'name':
            'Plan a beekeeping guide', 'artifactClass': 'research', 'version': '2026.11.26',
            'intakeSchema': {'fields': [{'name': 'topic', 'type': 'string', 'required': True}]},
            'runtimeSteps': [{'id': 'step-1', 'name': 'Research', 'kind': 'llm', 'role': 'researcher',
            'capability': 'text'}], 'gates': [], 'providers': {'researcher': 'anthropic/claude-
            haiku-4-5'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Workflow]
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
    body: AuthorWorkflowRequest,
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
    | Workflow
    | None
):
    """Create a workspace's workflow as a draft, or replace its current draft (owners and admins)

     Creates a workflow of the caller's workspace as a draft (201), or replaces its current draft (200);
    drafts are not in the catalog and do not execute. Owners and admins only (403 admin_required); an id
    used by another workflow is 409 workflow_id_taken, and a published version is frozen (409
    version_frozen).

    Args:
        body (AuthorWorkflowRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'definition': {'id': 'plan-bee-guide', 'name':
            'Plan a beekeeping guide', 'artifactClass': 'research', 'version': '2026.11.26',
            'intakeSchema': {'fields': [{'name': 'topic', 'type': 'string', 'required': True}]},
            'runtimeSteps': [{'id': 'step-1', 'name': 'Research', 'kind': 'llm', 'role': 'researcher',
            'capability': 'text'}], 'gates': [], 'providers': {'researcher': 'anthropic/claude-
            haiku-4-5'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Workflow
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AuthorWorkflowRequest,
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
    | Workflow
]:
    """Create a workspace's workflow as a draft, or replace its current draft (owners and admins)

     Creates a workflow of the caller's workspace as a draft (201), or replaces its current draft (200);
    drafts are not in the catalog and do not execute. Owners and admins only (403 admin_required); an id
    used by another workflow is 409 workflow_id_taken, and a published version is frozen (409
    version_frozen).

    Args:
        body (AuthorWorkflowRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'definition': {'id': 'plan-bee-guide', 'name':
            'Plan a beekeeping guide', 'artifactClass': 'research', 'version': '2026.11.26',
            'intakeSchema': {'fields': [{'name': 'topic', 'type': 'string', 'required': True}]},
            'runtimeSteps': [{'id': 'step-1', 'name': 'Research', 'kind': 'llm', 'role': 'researcher',
            'capability': 'text'}], 'gates': [], 'providers': {'researcher': 'anthropic/claude-
            haiku-4-5'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Workflow]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AuthorWorkflowRequest,
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
    | Workflow
    | None
):
    """Create a workspace's workflow as a draft, or replace its current draft (owners and admins)

     Creates a workflow of the caller's workspace as a draft (201), or replaces its current draft (200);
    drafts are not in the catalog and do not execute. Owners and admins only (403 admin_required); an id
    used by another workflow is 409 workflow_id_taken, and a published version is frozen (409
    version_frozen).

    Args:
        body (AuthorWorkflowRequest):  Example: {'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'definition': {'id': 'plan-bee-guide', 'name':
            'Plan a beekeeping guide', 'artifactClass': 'research', 'version': '2026.11.26',
            'intakeSchema': {'fields': [{'name': 'topic', 'type': 'string', 'required': True}]},
            'runtimeSteps': [{'id': 'step-1', 'name': 'Research', 'kind': 'llm', 'role': 'researcher',
            'capability': 'text'}], 'gates': [], 'providers': {'researcher': 'anthropic/claude-
            haiku-4-5'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | EtagMismatch | MessageError | Workflow
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
