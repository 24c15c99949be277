from enum import StrEnum


class StepFallbackReason(StrEnum):
    MODEL_NOT_FOUND = "model_not_found"
    PROVIDER_THROTTLED = "provider_throttled"
    PROVIDER_UNAVAILABLE = "provider_unavailable"

    def __str__(self) -> str:
        return str(self.value)
