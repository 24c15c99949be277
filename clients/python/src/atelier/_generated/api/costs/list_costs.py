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
from ...models.costs import Costs
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.list_costs_group_by import ListCostsGroupBy
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...models.workflow_invalid import WorkflowInvalid
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    group_by: ListCostsGroupBy | Unset = ListCostsGroupBy.DAY,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_workspace_id: str | Unset = UNSET
    if not isinstance(workspace_id, Unset):
        json_workspace_id = str(workspace_id)
    params["workspaceId"] = json_workspace_id

    json_project_id: str | Unset = UNSET
    if not isinstance(project_id, Unset):
        json_project_id = str(project_id)
    params["projectId"] = json_project_id

    json_from_: str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_.isoformat()

    params["from"] = json_from_

    json_to: str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to.isoformat()

    params["to"] = json_to

    json_group_by: str | Unset = UNSET
    if not isinstance(group_by, Unset):
        json_group_by = group_by.value

    params["groupBy"] = json_group_by

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/costs",
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
    | Costs
    | None
):
    if response.status_code == 200:
        response_200 = Costs.from_dict(response.json())

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
    | Costs
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
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    group_by: ListCostsGroupBy | Unset = ListCostsGroupBy.DAY,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | Costs
]:
    """Spend of a workspace (or project) between from and to, grouped by day, workflow, project, provider
    or model

     Aggregates spend of a workspace (or one project) between from and to, grouped by day, workflow,
    project, provider or model; each run counts its own spend once, so sub-workflow children are not
    counted twice. Any member of the workspace may call it; a workspace-bound API key reaching another
    workspace gets 403, and a resource outside the caller's workspaces is 404.

    Args:
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        group_by (ListCostsGroupBy | Unset):  Default: ListCostsGroupBy.DAY.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | Costs | MessageError]
    """

    kwargs = _get_kwargs(
        workspace_id=workspace_id,
        project_id=project_id,
        from_=from_,
        to=to,
        group_by=group_by,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    group_by: ListCostsGroupBy | Unset = ListCostsGroupBy.DAY,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | Costs
    | None
):
    """Spend of a workspace (or project) between from and to, grouped by day, workflow, project, provider
    or model

     Aggregates spend of a workspace (or one project) between from and to, grouped by day, workflow,
    project, provider or model; each run counts its own spend once, so sub-workflow children are not
    counted twice. Any member of the workspace may call it; a workspace-bound API key reaching another
    workspace gets 403, and a resource outside the caller's workspaces is 404.

    Args:
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        group_by (ListCostsGroupBy | Unset):  Default: ListCostsGroupBy.DAY.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | Costs | MessageError
    """

    return sync_detailed(
        client=client,
        workspace_id=workspace_id,
        project_id=project_id,
        from_=from_,
        to=to,
        group_by=group_by,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    group_by: ListCostsGroupBy | Unset = ListCostsGroupBy.DAY,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | Costs
]:
    """Spend of a workspace (or project) between from and to, grouped by day, workflow, project, provider
    or model

     Aggregates spend of a workspace (or one project) between from and to, grouped by day, workflow,
    project, provider or model; each run counts its own spend once, so sub-workflow children are not
    counted twice. Any member of the workspace may call it; a workspace-bound API key reaching another
    workspace gets 403, and a resource outside the caller's workspaces is 404.

    Args:
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        group_by (ListCostsGroupBy | Unset):  Default: ListCostsGroupBy.DAY.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | Costs | MessageError]
    """

    kwargs = _get_kwargs(
        workspace_id=workspace_id,
        project_id=project_id,
        from_=from_,
        to=to,
        group_by=group_by,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    workspace_id: UUID | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    from_: datetime.date | datetime.datetime | Unset = UNSET,
    to: datetime.date | datetime.datetime | Unset = UNSET,
    group_by: ListCostsGroupBy | Unset = ListCostsGroupBy.DAY,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | Costs
    | None
):
    """Spend of a workspace (or project) between from and to, grouped by day, workflow, project, provider
    or model

     Aggregates spend of a workspace (or one project) between from and to, grouped by day, workflow,
    project, provider or model; each run counts its own spend once, so sub-workflow children are not
    counted twice. Any member of the workspace may call it; a workspace-bound API key reaching another
    workspace gets 403, and a resource outside the caller's workspaces is 404.

    Args:
        workspace_id (UUID | Unset):
        project_id (UUID | Unset):
        from_ (datetime.date | datetime.datetime | Unset):
        to (datetime.date | datetime.datetime | Unset):
        group_by (ListCostsGroupBy | Unset):  Default: ListCostsGroupBy.DAY.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | Costs | MessageError
    """

    return (
        await asyncio_detailed(
            client=client,
            workspace_id=workspace_id,
            project_id=project_id,
            from_=from_,
            to=to,
            group_by=group_by,
        )
    ).parsed
