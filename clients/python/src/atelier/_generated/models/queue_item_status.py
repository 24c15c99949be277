from enum import StrEnum


class QueueItemStatus(StrEnum):
    REVIEW = "review"

    def __str__(self) -> str:
        return str(self.value)
