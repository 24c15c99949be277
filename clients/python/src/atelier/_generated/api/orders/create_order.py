from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_required import AdminRequired
from ...models.budget_refusal import BudgetRefusal
from ...models.character_not_usable import CharacterNotUsable
from ...models.coded_error import CodedError
from ...models.create_order_request import CreateOrderRequest
from ...models.intake_invalid import IntakeInvalid
from ...models.keyed_invalid import KeyedInvalid
from ...models.message_error import MessageError
from ...models.order import Order
from ...models.request_validation_error import RequestValidationError
from ...models.template_deprecated import TemplateDeprecated
from ...models.workflow_invalid import WorkflowInvalid
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateOrderRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/orders",
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
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | Order
    | None
):
    if response.status_code == 201:
        response_201 = Order.from_dict(response.json())

        return response_201

    if response.status_code == 400:

        def _parse_response_400(data: object) -> CodedError | TemplateDeprecated:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_400_type_0 = TemplateDeprecated.from_dict(data)

                return response_400_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_400_type_1 = CodedError.from_dict(data)

            return response_400_type_1

        response_400 = _parse_response_400(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = MessageError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = BudgetRefusal.from_dict(response.json())

        return response_402

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
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | Order
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
    body: CreateOrderRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | Order
]:
    """Plan an order: children are created as planned runs with an estimate; nothing runs or is spent

     Plans an order: one child run per variation, created as planned runs with an estimate; nothing runs
    or is spent until POST /v1/orders/{order_id}/start. Any member of the workspace may call it; refused
    with 404 unknown workflow, 400 template_deprecated, invalid_provider_override or
    character_batch_unsupported, 422 intake_invalid or character_not_usable, and 402 budget_exceeded
    when the estimate breaches a budget or budgetLimitUsd. Without an Idempotency-Key each call creates
    a new order. With one, a retry of the same request (same key, same body, same workspace) within 24
    hours creates nothing and answers the order the first request created, as it now stands, with the
    header Idempotent-Replayed: true; the same key with another body is refused with 422
    idempotency_key_reused. Two requests racing with one key create one order.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (CreateOrderRequest):  Example: {'workflowId': 'plan-research-report',
            'variationSpec': {'resolver': 'list', 'params': {'items': [{'topic': 'urban beekeeping'},
            {'topic': 'rooftop gardens'}, {'topic': 'community composting'}]}}, 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId':
            '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'targetCount': 3, 'budgetLimitUsd': 12.5,
            'budgetEnforcementMode': 'hard_stop', 'tags': ['q3-content']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | Order]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateOrderRequest,
    idempotency_key: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | Order
    | None
):
    """Plan an order: children are created as planned runs with an estimate; nothing runs or is spent

     Plans an order: one child run per variation, created as planned runs with an estimate; nothing runs
    or is spent until POST /v1/orders/{order_id}/start. Any member of the workspace may call it; refused
    with 404 unknown workflow, 400 template_deprecated, invalid_provider_override or
    character_batch_unsupported, 422 intake_invalid or character_not_usable, and 402 budget_exceeded
    when the estimate breaches a budget or budgetLimitUsd. Without an Idempotency-Key each call creates
    a new order. With one, a retry of the same request (same key, same body, same workspace) within 24
    hours creates nothing and answers the order the first request created, as it now stands, with the
    header Idempotent-Replayed: true; the same key with another body is refused with 422
    idempotency_key_reused. Two requests racing with one key create one order.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (CreateOrderRequest):  Example: {'workflowId': 'plan-research-report',
            'variationSpec': {'resolver': 'list', 'params': {'items': [{'topic': 'urban beekeeping'},
            {'topic': 'rooftop gardens'}, {'topic': 'community composting'}]}}, 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId':
            '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'targetCount': 3, 'budgetLimitUsd': 12.5,
            'budgetEnforcementMode': 'hard_stop', 'tags': ['q3-content']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | Order
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateOrderRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | Order
]:
    """Plan an order: children are created as planned runs with an estimate; nothing runs or is spent

     Plans an order: one child run per variation, created as planned runs with an estimate; nothing runs
    or is spent until POST /v1/orders/{order_id}/start. Any member of the workspace may call it; refused
    with 404 unknown workflow, 400 template_deprecated, invalid_provider_override or
    character_batch_unsupported, 422 intake_invalid or character_not_usable, and 402 budget_exceeded
    when the estimate breaches a budget or budgetLimitUsd. Without an Idempotency-Key each call creates
    a new order. With one, a retry of the same request (same key, same body, same workspace) within 24
    hours creates nothing and answers the order the first request created, as it now stands, with the
    header Idempotent-Replayed: true; the same key with another body is refused with 422
    idempotency_key_reused. Two requests racing with one key create one order.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (CreateOrderRequest):  Example: {'workflowId': 'plan-research-report',
            'variationSpec': {'resolver': 'list', 'params': {'items': [{'topic': 'urban beekeeping'},
            {'topic': 'rooftop gardens'}, {'topic': 'community composting'}]}}, 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId':
            '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'targetCount': 3, 'budgetLimitUsd': 12.5,
            'budgetEnforcementMode': 'hard_stop', 'tags': ['q3-content']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | Order]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateOrderRequest,
    idempotency_key: str | Unset = UNSET,
) -> (
    AdminRequired
    | CodedError
    | MessageError
    | BudgetRefusal
    | CharacterNotUsable
    | IntakeInvalid
    | KeyedInvalid
    | RequestValidationError
    | WorkflowInvalid
    | TemplateDeprecated
    | Order
    | None
):
    """Plan an order: children are created as planned runs with an estimate; nothing runs or is spent

     Plans an order: one child run per variation, created as planned runs with an estimate; nothing runs
    or is spent until POST /v1/orders/{order_id}/start. Any member of the workspace may call it; refused
    with 404 unknown workflow, 400 template_deprecated, invalid_provider_override or
    character_batch_unsupported, 422 intake_invalid or character_not_usable, and 402 budget_exceeded
    when the estimate breaches a budget or budgetLimitUsd. Without an Idempotency-Key each call creates
    a new order. With one, a retry of the same request (same key, same body, same workspace) within 24
    hours creates nothing and answers the order the first request created, as it now stands, with the
    header Idempotent-Replayed: true; the same key with another body is refused with 422
    idempotency_key_reused. Two requests racing with one key create one order.

    Args:
        idempotency_key (str | Unset): Makes the create safe to retry: within 24 hours, a request
            with the same key and body in the same workspace gets what the first created, with
            Idempotent-Replayed: true; another body with the key is refused (422
            idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces. Example:
            order-2026-11-26-0001.
        body (CreateOrderRequest):  Example: {'workflowId': 'plan-research-report',
            'variationSpec': {'resolver': 'list', 'params': {'items': [{'topic': 'urban beekeeping'},
            {'topic': 'rooftop gardens'}, {'topic': 'community composting'}]}}, 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId':
            '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'targetCount': 3, 'budgetLimitUsd': 12.5,
            'budgetEnforcementMode': 'hard_stop', 'tags': ['q3-content']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRequired | CodedError | MessageError | BudgetRefusal | CharacterNotUsable | CodedError | IntakeInvalid | KeyedInvalid | RequestValidationError | WorkflowInvalid | CodedError | TemplateDeprecated | MessageError | Order
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
