from enum import StrEnum


class KeyedInvalidDetailCode(StrEnum):
    VARIATIONS_INVALID = "variations_invalid"
    WORKFLOW_NOT_RUNNABLE = "workflow_not_runnable"

    def __str__(self) -> str:
        return str(self.value)
