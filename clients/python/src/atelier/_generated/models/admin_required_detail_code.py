from enum import StrEnum


class AdminRequiredDetailCode(StrEnum):
    ADMIN_REQUIRED = "admin_required"

    def __str__(self) -> str:
        return str(self.value)
