from enum import StrEnum


class ClientCreateRequestStatus(StrEnum):
    ACTIVE = "active"
    LEAD = "lead"
    PAST = "past"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
