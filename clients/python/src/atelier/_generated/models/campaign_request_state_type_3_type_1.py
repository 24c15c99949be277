from enum import StrEnum


class CampaignRequestStateType3Type1(StrEnum):
    CLOSED = "closed"
    DELIVERED = "delivered"
    IN_PRODUCTION = "in_production"
    RECEIVED = "received"
    SCOPING = "scoping"

    def __str__(self) -> str:
        return str(self.value)
