from enum import StrEnum


class ListArtifactsArtifactClass(StrEnum):
    KNOWLEDGE = "knowledge"
    RESEARCH = "research"
    VIDEO = "video"
    VISUAL = "visual"

    def __str__(self) -> str:
        return str(self.value)
