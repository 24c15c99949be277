from enum import StrEnum


class ArtifactTypeRefArtifactClass(StrEnum):
    KNOWLEDGE = "knowledge"
    RESEARCH = "research"
    VIDEO = "video"
    VISUAL = "visual"

    def __str__(self) -> str:
        return str(self.value)
