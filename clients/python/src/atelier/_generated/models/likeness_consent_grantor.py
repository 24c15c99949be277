from enum import StrEnum


class LikenessConsentGrantor(StrEnum):
    AGENT = "agent"
    ESTATE = "estate"
    GUARDIAN = "guardian"
    SUBJECT = "subject"

    def __str__(self) -> str:
        return str(self.value)
