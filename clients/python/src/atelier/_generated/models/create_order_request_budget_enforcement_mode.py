from enum import StrEnum


class CreateOrderRequestBudgetEnforcementMode(StrEnum):
    ALLOW_ONE_MORE = "allow_one_more"
    ALLOW_OVERAGE = "allow_overage"
    HARD_STOP = "hard_stop"
    NOTIFY_ONLY = "notify_only"

    def __str__(self) -> str:
        return str(self.value)
