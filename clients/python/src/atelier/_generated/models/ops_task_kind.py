from enum import StrEnum


class OpsTaskKind(StrEnum):
    CAMPAIGN_SUBMITTED = "campaign_submitted"

    def __str__(self) -> str:
        return str(self.value)
