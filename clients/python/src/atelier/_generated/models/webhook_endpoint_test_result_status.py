from enum import StrEnum


class WebhookEndpointTestResultStatus(StrEnum):
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
