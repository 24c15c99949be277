from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.artifact_artifact_class import ArtifactArtifactClass
from ..models.artifact_status import ArtifactStatus

if TYPE_CHECKING:
    from ..models.artifact_content import ArtifactContent
    from ..models.artifact_qa import ArtifactQa


T = TypeVar("T", bound="Artifact")


@_attrs_define
class Artifact:
    """
    Example:
        {'id': 'artifact-8d2f4b6a', 'runId': 'run-3f9a1c2e', 'templateId': 'plan-research-report', 'workspaceId':
            '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34', 'projectId': '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83', 'title': 'Urban
            beekeeping: a research report', 'status': 'ready', 'artifactClass': 'research', 'artifactType': 'research-
            report', 'version': 1, 'content': {'type': 'research-report', 'title': 'Urban beekeeping: a research report',
            'summary': 'City hives thrive on varied forage; the main risks are swarming and neighbours.', 'sections':
            [{'heading': 'Forage', 'body': 'Parks, gardens and street trees flower in sequence from March to October.'}],
            'sources': ['https://www.bbka.org.uk/urban-beekeeping']}, 'qa': {'status': 'passed', 'checks': [{'id': 'sources-
            cited', 'label': 'Every section cites a source', 'status': 'pass', 'detail': '1 of 1 sections cite a source'}]},
            'createdAt': '2026-11-26T10:15:50.301Z', 'sourceReportArtifactId': None}

    Attributes:
        id (str):
        run_id (None | str):
        template_id (None | str):
        workspace_id (UUID):
        project_id (None | UUID):
        title (str):
        status (ArtifactStatus):
        artifact_class (ArtifactArtifactClass):
        artifact_type (str):
        version (int):
        content (ArtifactContent):
        qa (ArtifactQa):
        created_at (str):
        source_report_artifact_id (None | str):
    """

    id: str
    run_id: None | str
    template_id: None | str
    workspace_id: UUID
    project_id: None | UUID
    title: str
    status: ArtifactStatus
    artifact_class: ArtifactArtifactClass
    artifact_type: str
    version: int
    content: ArtifactContent
    qa: ArtifactQa
    created_at: str
    source_report_artifact_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        run_id: None | str
        run_id = self.run_id

        template_id: None | str
        template_id = self.template_id

        workspace_id = str(self.workspace_id)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        title = self.title

        status = self.status.value

        artifact_class = self.artifact_class.value

        artifact_type = self.artifact_type

        version = self.version

        content = self.content.to_dict()

        qa = self.qa.to_dict()

        created_at = self.created_at

        source_report_artifact_id: None | str
        source_report_artifact_id = self.source_report_artifact_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "runId": run_id,
                "templateId": template_id,
                "workspaceId": workspace_id,
                "projectId": project_id,
                "title": title,
                "status": status,
                "artifactClass": artifact_class,
                "artifactType": artifact_type,
                "version": version,
                "content": content,
                "qa": qa,
                "createdAt": created_at,
                "sourceReportArtifactId": source_report_artifact_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.artifact_content import ArtifactContent
        from ..models.artifact_qa import ArtifactQa

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_id = _parse_run_id(d.pop("runId"))

        def _parse_template_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        template_id = _parse_template_id(d.pop("templateId"))

        workspace_id = UUID(d.pop("workspaceId"))

        def _parse_project_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        project_id = _parse_project_id(d.pop("projectId"))

        title = d.pop("title")

        status = ArtifactStatus(d.pop("status"))

        artifact_class = ArtifactArtifactClass(d.pop("artifactClass"))

        artifact_type = d.pop("artifactType")

        version = d.pop("version")

        content = ArtifactContent.from_dict(d.pop("content"))

        qa = ArtifactQa.from_dict(d.pop("qa"))

        created_at = d.pop("createdAt")

        def _parse_source_report_artifact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_report_artifact_id = _parse_source_report_artifact_id(
            d.pop("sourceReportArtifactId")
        )

        artifact = cls(
            id=id,
            run_id=run_id,
            template_id=template_id,
            workspace_id=workspace_id,
            project_id=project_id,
            title=title,
            status=status,
            artifact_class=artifact_class,
            artifact_type=artifact_type,
            version=version,
            content=content,
            qa=qa,
            created_at=created_at,
            source_report_artifact_id=source_report_artifact_id,
        )

        artifact.additional_properties = d
        return artifact

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
