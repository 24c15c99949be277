from enum import StrEnum


class WebhookEndpointCreateRequestEventsItem(StrEnum):
    ORDER_ATTENTION = "order.attention"
    ORDER_CANCELLED = "order.cancelled"
    ORDER_COMPLETED = "order.completed"
    ORDER_FAILED = "order.failed"
    RUN_CANCELLED = "run.cancelled"
    RUN_COMPLETED = "run.completed"
    RUN_FAILED = "run.failed"
    RUN_REVIEW = "run.review"
    VALUE_8 = "*"

    def __str__(self) -> str:
        return str(self.value)
