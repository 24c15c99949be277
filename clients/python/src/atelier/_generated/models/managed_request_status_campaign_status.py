from enum import StrEnum


class ManagedRequestStatusCampaignStatus(StrEnum):
    DRAFT = "draft"
    PRODUCING = "producing"
    SUBMITTED = "submitted"

    def __str__(self) -> str:
        return str(self.value)
