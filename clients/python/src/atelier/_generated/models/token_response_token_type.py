from enum import StrEnum


class TokenResponseTokenType(StrEnum):
    BEARER = "bearer"

    def __str__(self) -> str:
        return str(self.value)
