from enum import StrEnum


class BudgetPeriod(StrEnum):
    MONTH = "month"
    TOTAL = "total"

    def __str__(self) -> str:
        return str(self.value)
