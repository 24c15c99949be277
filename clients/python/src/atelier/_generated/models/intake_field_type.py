from enum import StrEnum


class IntakeFieldType(StrEnum):
    ARRAY = "array"
    ARTIFACTREFERENCE = "artifactReference"
    BOOLEAN = "boolean"
    ENUM = "enum"
    INTEGER = "integer"
    NUMBER = "number"
    OBJECT = "object"
    STRING = "string"

    def __str__(self) -> str:
        return str(self.value)
