from enum import StrEnum


class ProfileConfirmRequestFieldsItem(StrEnum):
    AUDIENCE = "audience"
    GUIDELINES = "guidelines"
    NAME = "name"
    VISUAL = "visual"
    VOICE = "voice"

    def __str__(self) -> str:
        return str(self.value)
