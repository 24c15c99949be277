from enum import StrEnum


class IntakeInvalidDetailError(StrEnum):
    INTAKE_INVALID = "intake_invalid"

    def __str__(self) -> str:
        return str(self.value)
