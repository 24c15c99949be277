from enum import StrEnum


class ModelKind(StrEnum):
    CLASSIFIER = "classifier"
    EMBEDDING = "embedding"
    IMAGE = "image"
    TEXT = "text"
    VIDEO = "video"

    def __str__(self) -> str:
        return str(self.value)
