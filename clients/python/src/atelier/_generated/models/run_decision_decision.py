from enum import StrEnum


class RunDecisionDecision(StrEnum):
    APPROVE = "approve"
    REJECT = "reject"
    REQUEST_CHANGES = "request_changes"

    def __str__(self) -> str:
        return str(self.value)
