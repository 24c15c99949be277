from enum import StrEnum


class CreateBudgetRequestScope(StrEnum):
    PROJECT = "project"
    WORKSPACE = "workspace"

    def __str__(self) -> str:
        return str(self.value)
