from enum import StrEnum


class VariationSpecListResolver(StrEnum):
    LIST = "list"

    def __str__(self) -> str:
        return str(self.value)
