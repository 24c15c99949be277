from enum import StrEnum


class ClientEventFromStatusType3Type1(StrEnum):
    ACTIVE = "active"
    LEAD = "lead"
    PAST = "past"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
