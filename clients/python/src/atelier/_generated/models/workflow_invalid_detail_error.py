from enum import StrEnum


class WorkflowInvalidDetailError(StrEnum):
    WORKFLOW_INVALID = "workflow_invalid"

    def __str__(self) -> str:
        return str(self.value)
