from enum import StrEnum


class RunCreatedVia(StrEnum):
    API_KEY = "api_key"
    SESSION = "session"
    WORKER = "worker"

    def __str__(self) -> str:
        return str(self.value)
