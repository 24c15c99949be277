from enum import StrEnum


class CharacterCheckRequestMedia(StrEnum):
    IMAGE = "image"
    VIDEO = "video"
    VOICE = "voice"

    def __str__(self) -> str:
        return str(self.value)
