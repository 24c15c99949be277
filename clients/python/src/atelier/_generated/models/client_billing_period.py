from enum import StrEnum


class ClientBillingPeriod(StrEnum):
    MONTH = "month"
    ONE_OFF = "one_off"
    QUARTER = "quarter"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
