from enum import StrEnum


class LikenessConsentEvidenceKind(StrEnum):
    ESIGN_ENVELOPE = "esign_envelope"
    OTHER = "other"
    RECORDED_VIDEO = "recorded_video"
    SIGNED_RELEASE = "signed_release"

    def __str__(self) -> str:
        return str(self.value)
