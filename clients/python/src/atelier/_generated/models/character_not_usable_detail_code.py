from enum import StrEnum


class CharacterNotUsableDetailCode(StrEnum):
    CHARACTER_NOT_USABLE = "character_not_usable"

    def __str__(self) -> str:
        return str(self.value)
