from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.persona import Persona


T = TypeVar("T", bound="CharacterUpdateRequest")


@_attrs_define
class CharacterUpdateRequest:
    """
    Example:
        {'persona': {'summary': 'A cheerful urban beekeeper with a dry sense of humour'}, 'etag': '"c1d9f4a2b7"'}

    Attributes:
        name (str | Unset):
        persona (Persona | Unset):
        etag (str | Unset): The etag you read; or send it as If-Match
    """

    name: str | Unset = UNSET
    persona: Persona | Unset = UNSET
    etag: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        persona: dict[str, Any] | Unset = UNSET
        if not isinstance(self.persona, Unset):
            persona = self.persona.to_dict()

        etag = self.etag

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if persona is not UNSET:
            field_dict["persona"] = persona
        if etag is not UNSET:
            field_dict["etag"] = etag

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.persona import Persona

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _persona = d.pop("persona", UNSET)
        persona: Persona | Unset
        if isinstance(_persona, Unset):
            persona = UNSET
        else:
            persona = Persona.from_dict(_persona)

        etag = d.pop("etag", UNSET)

        character_update_request = cls(
            name=name,
            persona=persona,
            etag=etag,
        )

        character_update_request.additional_properties = d
        return character_update_request

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
