from enum import StrEnum


class PatchBudgetRequestPeriod(StrEnum):
    MONTH = "month"
    TOTAL = "total"

    def __str__(self) -> str:
        return str(self.value)
