from enum import StrEnum


class WorkflowSummaryVisibility(StrEnum):
    DRAFT = "draft"
    INTERNAL = "internal"
    PUBLIC = "public"

    def __str__(self) -> str:
        return str(self.value)
