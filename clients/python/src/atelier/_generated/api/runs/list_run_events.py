from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.coded_error import CodedError
from ...models.message_error import MessageError
from ...models.request_validation_error import RequestValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: str,
    *,
    last_event_id: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["lastEventId"] = last_event_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/runs/{run_id}/events".format(
            run_id=quote(str(run_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | Any
    | RequestValidationError
    | str
    | None
):
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
    AdminRequired | CodedError | MessageError | Any | RequestValidationError | str
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: str | Unset = UNSET,
) -> Response[
    AdminRequired | CodedError | MessageError | Any | RequestValidationError | str
]:
    """Server-sent events: a snapshot, then each state change of the run until it ends

     A server-sent event stream: a full snapshot on connect, then each state change as it happens; every
    event but step.output.delta carries an id, so reconnecting with Last-Event-ID loses no transition.
    Any member of the workspace may call it; a workspace-bound API key reaching another workspace gets
    403, and a resource outside the caller's workspaces is 404. Reconnecting after the run's last event
    answers 204.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        last_event_id (str | Unset): Same as the Last-Event-ID header, for clients that cannot set
            headers

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | Any | MessageError | RequestValidationError | str]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | Any
    | RequestValidationError
    | str
    | None
):
    """Server-sent events: a snapshot, then each state change of the run until it ends

     A server-sent event stream: a full snapshot on connect, then each state change as it happens; every
    event but step.output.delta carries an id, so reconnecting with Last-Event-ID loses no transition.
    Any member of the workspace may call it; a workspace-bound API key reaching another workspace gets
    403, and a resource outside the caller's workspaces is 404. Reconnecting after the run's last event
    answers 204.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        last_event_id (str | Unset): Same as the Last-Event-ID header, for clients that cannot set
            headers

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | Any | MessageError | RequestValidationError | str
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: str | Unset = UNSET,
) -> Response[
    AdminRequired | CodedError | MessageError | Any | RequestValidationError | str
]:
    """Server-sent events: a snapshot, then each state change of the run until it ends

     A server-sent event stream: a full snapshot on connect, then each state change as it happens; every
    event but step.output.delta carries an id, so reconnecting with Last-Event-ID loses no transition.
    Any member of the workspace may call it; a workspace-bound API key reaching another workspace gets
    403, and a resource outside the caller's workspaces is 404. Reconnecting after the run's last event
    answers 204.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        last_event_id (str | Unset): Same as the Last-Event-ID header, for clients that cannot set
            headers

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | Any | MessageError | RequestValidationError | str]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | Any
    | RequestValidationError
    | str
    | None
):
    """Server-sent events: a snapshot, then each state change of the run until it ends

     A server-sent event stream: a full snapshot on connect, then each state change as it happens; every
    event but step.output.delta carries an id, so reconnecting with Last-Event-ID loses no transition.
    Any member of the workspace may call it; a workspace-bound API key reaching another workspace gets
    403, and a resource outside the caller's workspaces is 404. Reconnecting after the run's last event
    answers 204.

    Args:
        run_id (str):  Example: run-1a2b3c4d.
        last_event_id (str | Unset): Same as the Last-Event-ID header, for clients that cannot set
            headers

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | Any | MessageError | RequestValidationError | str
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed
