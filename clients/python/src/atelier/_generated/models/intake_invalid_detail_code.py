from enum import StrEnum


class IntakeInvalidDetailCode(StrEnum):
    INTAKE_INVALID = "intake_invalid"

    def __str__(self) -> str:
        return str(self.value)
