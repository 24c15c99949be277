from enum import StrEnum


class RunFilterStatus(StrEnum):
    CANCELLED = "cancelled"
    CHANGES_REQUESTED = "changes_requested"
    COMPLETED = "completed"
    FAILED = "failed"
    PENDING = "pending"
    PLANNED = "planned"
    QUEUED = "queued"
    REJECTED = "rejected"
    REVIEW = "review"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
