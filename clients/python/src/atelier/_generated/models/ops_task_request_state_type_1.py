from enum import StrEnum


class OpsTaskRequestStateType1(StrEnum):
    CLOSED = "closed"
    DELIVERED = "delivered"
    IN_PRODUCTION = "in_production"
    RECEIVED = "received"
    SCOPING = "scoping"

    def __str__(self) -> str:
        return str(self.value)
