from enum import StrEnum


class FontCaptureStatus(StrEnum):
    CAPTURED = "captured"
    FAILED = "failed"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return str(self.value)
