from enum import StrEnum


class EtagMismatchDetailCode(StrEnum):
    ETAG_MISMATCH = "etag_mismatch"

    def __str__(self) -> str:
        return str(self.value)
