from enum import StrEnum


class VariationSpecCsvResolver(StrEnum):
    CSV = "csv"

    def __str__(self) -> str:
        return str(self.value)
