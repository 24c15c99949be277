from enum import StrEnum


class QaCheckStatus(StrEnum):
    FAIL = "fail"
    PASS = "pass"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
