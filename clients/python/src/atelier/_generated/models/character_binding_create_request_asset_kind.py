from enum import StrEnum


class CharacterBindingCreateRequestAssetKind(StrEnum):
    LIKENESS = "likeness"
    VOICE = "voice"

    def __str__(self) -> str:
        return str(self.value)
