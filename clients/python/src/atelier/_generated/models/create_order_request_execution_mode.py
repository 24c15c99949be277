from enum import StrEnum


class CreateOrderRequestExecutionMode(StrEnum):
    BATCH = "batch"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
