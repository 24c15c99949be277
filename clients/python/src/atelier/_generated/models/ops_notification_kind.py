from enum import StrEnum


class OpsNotificationKind(StrEnum):
    CAMPAIGN_SUBMITTED = "campaign_submitted"

    def __str__(self) -> str:
        return str(self.value)
