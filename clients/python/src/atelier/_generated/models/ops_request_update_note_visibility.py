from enum import StrEnum


class OpsRequestUpdateNoteVisibility(StrEnum):
    CAMPAIGN = "campaign"
    INTERNAL = "internal"

    def __str__(self) -> str:
        return str(self.value)
