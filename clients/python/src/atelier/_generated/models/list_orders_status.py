from enum import StrEnum


class ListOrdersStatus(StrEnum):
    ATTENTION = "attention"
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    FAILED = "failed"
    PLANNED = "planned"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
