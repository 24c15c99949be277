from enum import StrEnum


class CharacterFormat(StrEnum):
    LIKENESS = "likeness"
    SYNTHETIC = "synthetic"

    def __str__(self) -> str:
        return str(self.value)
