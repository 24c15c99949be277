from enum import StrEnum


class EstimatedCostCurrency(StrEnum):
    USD = "USD"

    def __str__(self) -> str:
        return str(self.value)
