from enum import StrEnum


class BudgetRefusalDetailCode(StrEnum):
    BUDGET_EXCEEDED = "budget_exceeded"

    def __str__(self) -> str:
        return str(self.value)
