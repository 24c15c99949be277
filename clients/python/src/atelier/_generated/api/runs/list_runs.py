import datetime
from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.list_runs_include_archived import ListRunsIncludeArchived
from ...models.list_runs_metadata import ListRunsMetadata
from ...models.list_runs_status import ListRunsStatus
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.run_list import RunList
from ...models.workflow_invalid import WorkflowInvalid
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    offset: int | None | Unset = 0,
    limit: int | Unset = 50,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListRunsStatus | Unset = UNSET,
    template_id: str | Unset = UNSET,
    parent_order_id: str | Unset = UNSET,
    worker_id: str | Unset = UNSET,
    rerun_of: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    include_archived: ListRunsIncludeArchived | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    metadata: ListRunsMetadata | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_offset: int | None | Unset
    if isinstance(offset, Unset):
        json_offset = UNSET
    else:
        json_offset = offset
    params["offset"] = json_offset

    params["limit"] = limit

    json_workspace_id: str | Unset = UNSET
    if not isinstance(workspace_id, Unset):
        json_workspace_id = str(workspace_id)
    params["workspaceId"] = json_workspace_id

    json_project_id: str | Unset = UNSET
    if not isinstance(project_id, Unset):
        json_project_id = str(project_id)
    params["projectId"] = json_project_id

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["templateId"] = template_id

    params["parentOrderId"] = parent_order_id

    params["workerId"] = worker_id

    params["rerunOf"] = rerun_of

    json_created_after: str | Unset = UNSET
    if not isinstance(created_after, Unset):
        json_created_after = created_after.isoformat()
    params["createdAfter"] = json_created_after

    json_created_before: str | Unset = UNSET
    if not isinstance(created_before, Unset):
        json_created_before = created_before.isoformat()
    params["createdBefore"] = json_created_before

    params["q"] = q

    json_include_archived: str | Unset = UNSET
    if not isinstance(include_archived, Unset):
        json_include_archived = include_archived.value

    params["includeArchived"] = json_include_archived

    json_tag: list[str] | Unset = UNSET
    if not isinstance(tag, Unset):
        json_tag = tag

    params["tag"] = json_tag

    json_metadata: dict[str, Any] | Unset = UNSET
    if not isinstance(metadata, Unset):
        json_metadata = metadata.to_dict()
    if not isinstance(json_metadata, Unset):
        params.update(json_metadata)

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/runs",
        "params": params,
    }

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
    | RunList
    | None
):
    if response.status_code == 200:
        response_200 = RunList.from_dict(response.json())

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
    | RunList
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
    offset: int | None | Unset = 0,
    limit: int | Unset = 50,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListRunsStatus | Unset = UNSET,
    template_id: str | Unset = UNSET,
    parent_order_id: str | Unset = UNSET,
    worker_id: str | Unset = UNSET,
    rerun_of: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    include_archived: ListRunsIncludeArchived | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    metadata: ListRunsMetadata | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | RunList
]:
    """Runs of a workspace, newest first

     Lists the runs of one workspace (the one named, else the project's, else the caller's default),
    newest first, paged; filters include status, projectId, templateId, parentOrderId, workerId,
    rerunOf, tag, metadata[key], createdAfter and createdBefore, and q searches run ids, workflow ids
    and names and tags; archived runs appear only with includeArchived=true. Any member of the workspace
    may call it; a workspace-bound API key reaching another workspace gets 403, and a resource outside
    the caller's workspaces is 404.

    Args:
        offset (int | None | Unset):  Default: 0. Example: 0.
        limit (int | Unset):  Default: 50. Example: 50.
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        status (ListRunsStatus | Unset):
        template_id (str | Unset): Only runs of this workflow
        parent_order_id (str | Unset):
        worker_id (str | Unset):
        rerun_of (str | Unset): Only the reruns of this run
        created_after (datetime.datetime | Unset): Runs created at or after this instant
        created_before (datetime.datetime | Unset): Runs created before this instant
        q (str | Unset): Only runs whose id, workflow id, workflow name or one of whose tags
            contains this text, case aside (at most 200 characters; % and _ are matched as themselves)
            Example: heron.
        include_archived (ListRunsIncludeArchived | Unset):
        tag (list[str] | Unset): Only runs carrying every tag given (repeat the parameter for more
            than one) Example: ['campaign:spring'].
        metadata (ListRunsMetadata | Unset): Only runs whose metadata has each key with exactly
            this value: metadata[<key>]=<value>, repeatable with other keys Example: {'customer':
            'acme'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError | RunList]
    """

    kwargs = _get_kwargs(
        offset=offset,
        limit=limit,
        workspace_id=workspace_id,
        project_id=project_id,
        status=status,
        template_id=template_id,
        parent_order_id=parent_order_id,
        worker_id=worker_id,
        rerun_of=rerun_of,
        created_after=created_after,
        created_before=created_before,
        q=q,
        include_archived=include_archived,
        tag=tag,
        metadata=metadata,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    offset: int | None | Unset = 0,
    limit: int | Unset = 50,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListRunsStatus | Unset = UNSET,
    template_id: str | Unset = UNSET,
    parent_order_id: str | Unset = UNSET,
    worker_id: str | Unset = UNSET,
    rerun_of: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    include_archived: ListRunsIncludeArchived | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    metadata: ListRunsMetadata | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | RunList
    | None
):
    """Runs of a workspace, newest first

     Lists the runs of one workspace (the one named, else the project's, else the caller's default),
    newest first, paged; filters include status, projectId, templateId, parentOrderId, workerId,
    rerunOf, tag, metadata[key], createdAfter and createdBefore, and q searches run ids, workflow ids
    and names and tags; archived runs appear only with includeArchived=true. Any member of the workspace
    may call it; a workspace-bound API key reaching another workspace gets 403, and a resource outside
    the caller's workspaces is 404.

    Args:
        offset (int | None | Unset):  Default: 0. Example: 0.
        limit (int | Unset):  Default: 50. Example: 50.
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        status (ListRunsStatus | Unset):
        template_id (str | Unset): Only runs of this workflow
        parent_order_id (str | Unset):
        worker_id (str | Unset):
        rerun_of (str | Unset): Only the reruns of this run
        created_after (datetime.datetime | Unset): Runs created at or after this instant
        created_before (datetime.datetime | Unset): Runs created before this instant
        q (str | Unset): Only runs whose id, workflow id, workflow name or one of whose tags
            contains this text, case aside (at most 200 characters; % and _ are matched as themselves)
            Example: heron.
        include_archived (ListRunsIncludeArchived | Unset):
        tag (list[str] | Unset): Only runs carrying every tag given (repeat the parameter for more
            than one) Example: ['campaign:spring'].
        metadata (ListRunsMetadata | Unset): Only runs whose metadata has each key with exactly
            this value: metadata[<key>]=<value>, repeatable with other keys Example: {'customer':
            'acme'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError | RunList
    """

    return sync_detailed(
        client=client,
        offset=offset,
        limit=limit,
        workspace_id=workspace_id,
        project_id=project_id,
        status=status,
        template_id=template_id,
        parent_order_id=parent_order_id,
        worker_id=worker_id,
        rerun_of=rerun_of,
        created_after=created_after,
        created_before=created_before,
        q=q,
        include_archived=include_archived,
        tag=tag,
        metadata=metadata,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    offset: int | None | Unset = 0,
    limit: int | Unset = 50,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListRunsStatus | Unset = UNSET,
    template_id: str | Unset = UNSET,
    parent_order_id: str | Unset = UNSET,
    worker_id: str | Unset = UNSET,
    rerun_of: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    include_archived: ListRunsIncludeArchived | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    metadata: ListRunsMetadata | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | RunList
]:
    """Runs of a workspace, newest first

     Lists the runs of one workspace (the one named, else the project's, else the caller's default),
    newest first, paged; filters include status, projectId, templateId, parentOrderId, workerId,
    rerunOf, tag, metadata[key], createdAfter and createdBefore, and q searches run ids, workflow ids
    and names and tags; archived runs appear only with includeArchived=true. Any member of the workspace
    may call it; a workspace-bound API key reaching another workspace gets 403, and a resource outside
    the caller's workspaces is 404.

    Args:
        offset (int | None | Unset):  Default: 0. Example: 0.
        limit (int | Unset):  Default: 50. Example: 50.
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        status (ListRunsStatus | Unset):
        template_id (str | Unset): Only runs of this workflow
        parent_order_id (str | Unset):
        worker_id (str | Unset):
        rerun_of (str | Unset): Only the reruns of this run
        created_after (datetime.datetime | Unset): Runs created at or after this instant
        created_before (datetime.datetime | Unset): Runs created before this instant
        q (str | Unset): Only runs whose id, workflow id, workflow name or one of whose tags
            contains this text, case aside (at most 200 characters; % and _ are matched as themselves)
            Example: heron.
        include_archived (ListRunsIncludeArchived | Unset):
        tag (list[str] | Unset): Only runs carrying every tag given (repeat the parameter for more
            than one) Example: ['campaign:spring'].
        metadata (ListRunsMetadata | Unset): Only runs whose metadata has each key with exactly
            this value: metadata[<key>]=<value>, repeatable with other keys Example: {'customer':
            'acme'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError | RunList]
    """

    kwargs = _get_kwargs(
        offset=offset,
        limit=limit,
        workspace_id=workspace_id,
        project_id=project_id,
        status=status,
        template_id=template_id,
        parent_order_id=parent_order_id,
        worker_id=worker_id,
        rerun_of=rerun_of,
        created_after=created_after,
        created_before=created_before,
        q=q,
        include_archived=include_archived,
        tag=tag,
        metadata=metadata,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    offset: int | None | Unset = 0,
    limit: int | Unset = 50,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListRunsStatus | Unset = UNSET,
    template_id: str | Unset = UNSET,
    parent_order_id: str | Unset = UNSET,
    worker_id: str | Unset = UNSET,
    rerun_of: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    include_archived: ListRunsIncludeArchived | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    metadata: ListRunsMetadata | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | RunList
    | None
):
    """Runs of a workspace, newest first

     Lists the runs of one workspace (the one named, else the project's, else the caller's default),
    newest first, paged; filters include status, projectId, templateId, parentOrderId, workerId,
    rerunOf, tag, metadata[key], createdAfter and createdBefore, and q searches run ids, workflow ids
    and names and tags; archived runs appear only with includeArchived=true. Any member of the workspace
    may call it; a workspace-bound API key reaching another workspace gets 403, and a resource outside
    the caller's workspaces is 404.

    Args:
        offset (int | None | Unset):  Default: 0. Example: 0.
        limit (int | Unset):  Default: 50. Example: 50.
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        status (ListRunsStatus | Unset):
        template_id (str | Unset): Only runs of this workflow
        parent_order_id (str | Unset):
        worker_id (str | Unset):
        rerun_of (str | Unset): Only the reruns of this run
        created_after (datetime.datetime | Unset): Runs created at or after this instant
        created_before (datetime.datetime | Unset): Runs created before this instant
        q (str | Unset): Only runs whose id, workflow id, workflow name or one of whose tags
            contains this text, case aside (at most 200 characters; % and _ are matched as themselves)
            Example: heron.
        include_archived (ListRunsIncludeArchived | Unset):
        tag (list[str] | Unset): Only runs carrying every tag given (repeat the parameter for more
            than one) Example: ['campaign:spring'].
        metadata (ListRunsMetadata | Unset): Only runs whose metadata has each key with exactly
            this value: metadata[<key>]=<value>, repeatable with other keys Example: {'customer':
            'acme'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | MessageError | RunList
    """

    return (
        await asyncio_detailed(
            client=client,
            offset=offset,
            limit=limit,
            workspace_id=workspace_id,
            project_id=project_id,
            status=status,
            template_id=template_id,
            parent_order_id=parent_order_id,
            worker_id=worker_id,
            rerun_of=rerun_of,
            created_after=created_after,
            created_before=created_before,
            q=q,
            include_archived=include_archived,
            tag=tag,
            metadata=metadata,
        )
    ).parsed
