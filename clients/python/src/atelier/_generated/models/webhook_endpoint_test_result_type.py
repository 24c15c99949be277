from enum import StrEnum


class WebhookEndpointTestResultType(StrEnum):
    ENDPOINT_TEST = "endpoint.test"

    def __str__(self) -> str:
        return str(self.value)
