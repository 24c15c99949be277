from enum import StrEnum


class UserDeletionType0Status(StrEnum):
    APPROVED = "approved"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
