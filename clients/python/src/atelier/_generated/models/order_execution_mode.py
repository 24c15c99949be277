from enum import StrEnum


class OrderExecutionMode(StrEnum):
    BATCH = "batch"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
