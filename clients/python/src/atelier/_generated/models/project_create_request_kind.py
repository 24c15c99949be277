from enum import StrEnum


class ProjectCreateRequestKind(StrEnum):
    PROJECT = "project"

    def __str__(self) -> str:
        return str(self.value)
