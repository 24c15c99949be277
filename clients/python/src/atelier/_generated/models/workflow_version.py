from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workflow_version_state import WorkflowVersionState
from ..models.workflow_version_visibility_type_1 import WorkflowVersionVisibilityType1
from ..models.workflow_version_visibility_type_2_type_1 import (
    WorkflowVersionVisibilityType2Type1,
)
from ..models.workflow_version_visibility_type_3_type_1 import (
    WorkflowVersionVisibilityType3Type1,
)

T = TypeVar("T", bound="WorkflowVersion")


@_attrs_define
class WorkflowVersion:
    """
    Attributes:
        version (str):
        state (WorkflowVersionState):
        visibility (None | WorkflowVersionVisibilityType1 | WorkflowVersionVisibilityType2Type1 |
            WorkflowVersionVisibilityType3Type1):
        definition_hash (str):
        created_at (str):
        published_at (None | str):
    """

    version: str
    state: WorkflowVersionState
    visibility: (
        None
        | WorkflowVersionVisibilityType1
        | WorkflowVersionVisibilityType2Type1
        | WorkflowVersionVisibilityType3Type1
    )
    definition_hash: str
    created_at: str
    published_at: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        state = self.state.value

        visibility: None | str
        if (
            isinstance(self.visibility, WorkflowVersionVisibilityType1)
            or isinstance(self.visibility, WorkflowVersionVisibilityType2Type1)
            or isinstance(self.visibility, WorkflowVersionVisibilityType3Type1)
        ):
            visibility = self.visibility.value
        else:
            visibility = self.visibility

        definition_hash = self.definition_hash

        created_at = self.created_at

        published_at: None | str
        published_at = self.published_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "state": state,
                "visibility": visibility,
                "definitionHash": definition_hash,
                "createdAt": created_at,
                "publishedAt": published_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        version = d.pop("version")

        state = WorkflowVersionState(d.pop("state"))

        def _parse_visibility(
            data: object,
        ) -> (
            None
            | WorkflowVersionVisibilityType1
            | WorkflowVersionVisibilityType2Type1
            | WorkflowVersionVisibilityType3Type1
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_1 = WorkflowVersionVisibilityType1(data)

                return visibility_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_2_type_1 = WorkflowVersionVisibilityType2Type1(data)

                return visibility_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_3_type_1 = WorkflowVersionVisibilityType3Type1(data)

                return visibility_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | WorkflowVersionVisibilityType1
                | WorkflowVersionVisibilityType2Type1
                | WorkflowVersionVisibilityType3Type1,
                data,
            )

        visibility = _parse_visibility(d.pop("visibility"))

        definition_hash = d.pop("definitionHash")

        created_at = d.pop("createdAt")

        def _parse_published_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        published_at = _parse_published_at(d.pop("publishedAt"))

        workflow_version = cls(
            version=version,
            state=state,
            visibility=visibility,
            definition_hash=definition_hash,
            created_at=created_at,
            published_at=published_at,
        )

        workflow_version.additional_properties = d
        return workflow_version

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
