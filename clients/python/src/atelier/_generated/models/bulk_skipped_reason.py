from enum import StrEnum


class BulkSkippedReason(StrEnum):
    BUDGET = "budget"
    TERMINAL = "terminal"

    def __str__(self) -> str:
        return str(self.value)
