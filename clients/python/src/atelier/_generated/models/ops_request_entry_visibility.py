from enum import StrEnum


class OpsRequestEntryVisibility(StrEnum):
    CAMPAIGN = "campaign"
    INTERNAL = "internal"

    def __str__(self) -> str:
        return str(self.value)
