from enum import StrEnum


class CharacterReferenceCreateRequestRole(StrEnum):
    EXPRESSION = "expression"
    OTHER = "other"
    OUTFIT = "outfit"
    PORTRAIT = "portrait"
    POSE = "pose"
    TURNAROUND = "turnaround"
    VOICE_SAMPLE = "voice_sample"

    def __str__(self) -> str:
        return str(self.value)
