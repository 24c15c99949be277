from enum import StrEnum


class EtagRequiredDetailCode(StrEnum):
    ETAG_REQUIRED = "etag_required"

    def __str__(self) -> str:
        return str(self.value)
