from enum import StrEnum


class DeliveryAttemptOutcome(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    RETRYING = "retrying"

    def __str__(self) -> str:
        return str(self.value)
