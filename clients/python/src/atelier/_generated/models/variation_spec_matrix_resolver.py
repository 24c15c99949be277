from enum import StrEnum


class VariationSpecMatrixResolver(StrEnum):
    MATRIX = "matrix"

    def __str__(self) -> str:
        return str(self.value)
