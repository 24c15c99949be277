from enum import StrEnum


class CharacterBindingAssetKind(StrEnum):
    LIKENESS = "likeness"
    VOICE = "voice"

    def __str__(self) -> str:
        return str(self.value)
