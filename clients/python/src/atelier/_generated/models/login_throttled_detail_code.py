from enum import StrEnum


class LoginThrottledDetailCode(StrEnum):
    LOGIN_THROTTLED = "login_throttled"

    def __str__(self) -> str:
        return str(self.value)
