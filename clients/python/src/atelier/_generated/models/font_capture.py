from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.font_capture_status import FontCaptureStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="FontCapture")


@_attrs_define
class FontCapture:
    """
    Attributes:
        family (None | str):
        status (FontCaptureStatus):
        url (None | str | Unset):
        storage_key (str | Unset):
        bytes_ (int | Unset):
        content_type (str | Unset):
        error (str | Unset):
    """

    family: None | str
    status: FontCaptureStatus
    url: None | str | Unset = UNSET
    storage_key: str | Unset = UNSET
    bytes_: int | Unset = UNSET
    content_type: str | Unset = UNSET
    error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        family: None | str
        family = self.family

        status = self.status.value

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        storage_key = self.storage_key

        bytes_ = self.bytes_

        content_type = self.content_type

        error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "family": family,
                "status": status,
            }
        )
        if url is not UNSET:
            field_dict["url"] = url
        if storage_key is not UNSET:
            field_dict["storageKey"] = storage_key
        if bytes_ is not UNSET:
            field_dict["bytes"] = bytes_
        if content_type is not UNSET:
            field_dict["contentType"] = content_type
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_family(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        family = _parse_family(d.pop("family"))

        status = FontCaptureStatus(d.pop("status"))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        storage_key = d.pop("storageKey", UNSET)

        bytes_ = d.pop("bytes", UNSET)

        content_type = d.pop("contentType", UNSET)

        error = d.pop("error", UNSET)

        font_capture = cls(
            family=family,
            status=status,
            url=url,
            storage_key=storage_key,
            bytes_=bytes_,
            content_type=content_type,
            error=error,
        )

        font_capture.additional_properties = d
        return font_capture

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
