from enum import StrEnum


class ListArtifactsStatus(StrEnum):
    APPROVED = "approved"
    DRAFT = "draft"
    READY = "ready"
    REJECTED = "rejected"
    REVIEW = "review"

    def __str__(self) -> str:
        return str(self.value)
