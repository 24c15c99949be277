from enum import StrEnum


class ProjectKind(StrEnum):
    BRAND = "brand"
    PROJECT = "project"

    def __str__(self) -> str:
        return str(self.value)
