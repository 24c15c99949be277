from enum import StrEnum


class BudgetRefusalDetailReason(StrEnum):
    ALLOW_ONE_MORE_EXHAUSTED = "allow_one_more_exhausted"
    ALLOW_OVERAGE_EXCEEDED = "allow_overage_exceeded"
    HARD_STOP = "hard_stop"
    PER_RUN_CAP_EXCEEDED = "per_run_cap_exceeded"

    def __str__(self) -> str:
        return str(self.value)
