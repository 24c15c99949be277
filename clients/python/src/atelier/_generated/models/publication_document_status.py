from enum import StrEnum


class PublicationDocumentStatus(StrEnum):
    DRAFT = "draft"
    PUBLISHED = "published"
    UNPUBLISHED = "unpublished"

    def __str__(self) -> str:
        return str(self.value)
