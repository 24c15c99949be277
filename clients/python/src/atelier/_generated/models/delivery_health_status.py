from enum import StrEnum


class DeliveryHealthStatus(StrEnum):
    FAILING = "failing"
    HEALTHY = "healthy"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
