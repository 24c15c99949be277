from enum import StrEnum


class WorkflowVersionVisibilityType1(StrEnum):
    DRAFT = "draft"
    INTERNAL = "internal"
    PUBLIC = "public"

    def __str__(self) -> str:
        return str(self.value)
