from enum import StrEnum


class ListCostsGroupBy(StrEnum):
    DAY = "day"
    MODEL = "model"
    PROJECT = "project"
    PROVIDER = "provider"
    WORKFLOW = "workflow"

    def __str__(self) -> str:
        return str(self.value)
