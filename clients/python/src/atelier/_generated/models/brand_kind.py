from enum import StrEnum


class BrandKind(StrEnum):
    BRAND = "brand"

    def __str__(self) -> str:
        return str(self.value)
