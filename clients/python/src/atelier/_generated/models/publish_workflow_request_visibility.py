from enum import StrEnum


class PublishWorkflowRequestVisibility(StrEnum):
    INTERNAL = "internal"
    PUBLIC = "public"

    def __str__(self) -> str:
        return str(self.value)
