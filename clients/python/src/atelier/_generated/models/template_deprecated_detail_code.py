from enum import StrEnum


class TemplateDeprecatedDetailCode(StrEnum):
    TEMPLATE_DEPRECATED = "template_deprecated"

    def __str__(self) -> str:
        return str(self.value)
