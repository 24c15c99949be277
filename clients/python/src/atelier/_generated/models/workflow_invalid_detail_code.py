from enum import StrEnum


class WorkflowInvalidDetailCode(StrEnum):
    WORKFLOW_INVALID = "workflow_invalid"

    def __str__(self) -> str:
        return str(self.value)
