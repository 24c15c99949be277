from enum import StrEnum


class CharacterBindingUpdateRequestProviderConsentStatus(StrEnum):
    ACCEPTED = "accepted"
    NOT_REQUIRED = "not_required"
    PENDING = "pending"
    REFUSED = "refused"

    def __str__(self) -> str:
        return str(self.value)
