from enum import StrEnum


class ListWorkspaceProjectsClientIdType0(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
