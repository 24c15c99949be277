from enum import StrEnum


class ClientBillingInputModel(StrEnum):
    HOURLY = "hourly"
    PROJECT = "project"
    RETAINER = "retainer"
    USAGE = "usage"

    def __str__(self) -> str:
        return str(self.value)
