"""Contains all the data models used in inputs/outputs"""

from .accept_gap_request import AcceptGapRequest
from .account_deletion_request import AccountDeletionRequest
from .admin_required import AdminRequired
from .admin_required_detail import AdminRequiredDetail
from .admin_required_detail_code import AdminRequiredDetailCode
from .api_key import ApiKey
from .api_key_list import ApiKeyList
from .artifact import Artifact
from .artifact_artifact_class import ArtifactArtifactClass
from .artifact_content import ArtifactContent
from .artifact_list import ArtifactList
from .artifact_qa import ArtifactQa
from .artifact_qa_checks_item import ArtifactQaChecksItem
from .artifact_qa_checks_item_status import ArtifactQaChecksItemStatus
from .artifact_status import ArtifactStatus
from .artifact_type_ref import ArtifactTypeRef
from .artifact_type_ref_artifact_class import ArtifactTypeRefArtifactClass
from .author_workflow_request import AuthorWorkflowRequest
from .author_workflow_request_definition import AuthorWorkflowRequestDefinition
from .author_workflow_request_definition_intake_schema import (
    AuthorWorkflowRequestDefinitionIntakeSchema,
)
from .brand import Brand
from .brand_create_request import BrandCreateRequest
from .brand_font import BrandFont
from .brand_import_request import BrandImportRequest
from .brand_kind import BrandKind
from .brand_list import BrandList
from .brand_profile import BrandProfile
from .brand_profile_input import BrandProfileInput
from .brand_profile_patch import BrandProfilePatch
from .brand_profile_patch_visual import BrandProfilePatchVisual
from .brand_profile_patch_voice import BrandProfilePatchVoice
from .brand_snapshot import BrandSnapshot
from .brand_snapshot_list import BrandSnapshotList
from .brand_visual import BrandVisual
from .brand_voice import BrandVoice
from .budget import Budget
from .budget_enforcement_mode import BudgetEnforcementMode
from .budget_list import BudgetList
from .budget_period import BudgetPeriod
from .budget_refusal import BudgetRefusal
from .budget_refusal_detail import BudgetRefusalDetail
from .budget_refusal_detail_code import BudgetRefusalDetailCode
from .budget_refusal_detail_reason import BudgetRefusalDetailReason
from .budget_refusal_list import BudgetRefusalList
from .budget_refusal_record import BudgetRefusalRecord
from .budget_refusal_record_detail import BudgetRefusalRecordDetail
from .budget_scope import BudgetScope
from .bulk_cancel_dry_run import BulkCancelDryRun
from .bulk_cancel_request import BulkCancelRequest
from .bulk_cancel_result import BulkCancelResult
from .bulk_failed import BulkFailed
from .bulk_rerun_dry_run import BulkRerunDryRun
from .bulk_rerun_request import BulkRerunRequest
from .bulk_rerun_request_intake import BulkRerunRequestIntake
from .bulk_rerun_request_providers import BulkRerunRequestProviders
from .bulk_rerun_result import BulkRerunResult
from .bulk_rerun_result_reruns_item import BulkRerunResultRerunsItem
from .bulk_skipped import BulkSkipped
from .bulk_skipped_reason import BulkSkippedReason
from .bulk_skipped_status import BulkSkippedStatus
from .campaign import Campaign
from .campaign_brief import CampaignBrief
from .campaign_create_request import CampaignCreateRequest
from .campaign_list import CampaignList
from .campaign_patch_request import CampaignPatchRequest
from .campaign_patch_request_brief import CampaignPatchRequestBrief
from .campaign_request_state_type_1 import CampaignRequestStateType1
from .campaign_request_state_type_2_type_1 import CampaignRequestStateType2Type1
from .campaign_request_state_type_3_type_1 import CampaignRequestStateType3Type1
from .campaign_status import CampaignStatus
from .catalog_list import CatalogList
from .catalog_workflow import CatalogWorkflow
from .catalog_workflow_budget_policy import CatalogWorkflowBudgetPolicy
from .catalog_workflow_gates_item import CatalogWorkflowGatesItem
from .catalog_workflow_intake_schema import CatalogWorkflowIntakeSchema
from .catalog_workflow_runtime_steps_item import CatalogWorkflowRuntimeStepsItem
from .catalog_workflow_summary import CatalogWorkflowSummary
from .catalog_workflow_summary_provided_item import CatalogWorkflowSummaryProvidedItem
from .catalog_workflow_summary_returned import CatalogWorkflowSummaryReturned
from .catalog_workflow_summary_status import CatalogWorkflowSummaryStatus
from .character import Character
from .character_binding import CharacterBinding
from .character_binding_asset_kind import CharacterBindingAssetKind
from .character_binding_create_request import CharacterBindingCreateRequest
from .character_binding_create_request_asset_kind import (
    CharacterBindingCreateRequestAssetKind,
)
from .character_binding_create_request_provider_consent_status import (
    CharacterBindingCreateRequestProviderConsentStatus,
)
from .character_binding_provider_consent_status import (
    CharacterBindingProviderConsentStatus,
)
from .character_binding_update_request import CharacterBindingUpdateRequest
from .character_binding_update_request_provider_consent_status import (
    CharacterBindingUpdateRequestProviderConsentStatus,
)
from .character_check_request import CharacterCheckRequest
from .character_check_request_media import CharacterCheckRequestMedia
from .character_check_result import CharacterCheckResult
from .character_create_request import CharacterCreateRequest
from .character_create_request_format import CharacterCreateRequestFormat
from .character_format import CharacterFormat
from .character_list import CharacterList
from .character_not_usable import CharacterNotUsable
from .character_not_usable_detail import CharacterNotUsableDetail
from .character_not_usable_detail_code import CharacterNotUsableDetailCode
from .character_reference import CharacterReference
from .character_reference_create_request import CharacterReferenceCreateRequest
from .character_reference_create_request_role import CharacterReferenceCreateRequestRole
from .character_reference_role import CharacterReferenceRole
from .character_update_request import CharacterUpdateRequest
from .character_usable_today import CharacterUsableToday
from .character_version import CharacterVersion
from .character_version_create_request import CharacterVersionCreateRequest
from .character_version_format import CharacterVersionFormat
from .character_version_list import CharacterVersionList
from .character_version_status import CharacterVersionStatus
from .client import Client
from .client_billing import ClientBilling
from .client_billing_input import ClientBillingInput
from .client_billing_input_model import ClientBillingInputModel
from .client_billing_input_period import ClientBillingInputPeriod
from .client_billing_model import ClientBillingModel
from .client_billing_period import ClientBillingPeriod
from .client_contact import ClientContact
from .client_contact_create_request import ClientContactCreateRequest
from .client_contact_list import ClientContactList
from .client_contact_update_request import ClientContactUpdateRequest
from .client_create_request import ClientCreateRequest
from .client_create_request_status import ClientCreateRequestStatus
from .client_event import ClientEvent
from .client_event_from_status_type_1 import ClientEventFromStatusType1
from .client_event_from_status_type_2_type_1 import ClientEventFromStatusType2Type1
from .client_event_from_status_type_3_type_1 import ClientEventFromStatusType3Type1
from .client_event_list import ClientEventList
from .client_event_to_status import ClientEventToStatus
from .client_list import ClientList
from .client_list_totals import ClientListTotals
from .client_projects_item import ClientProjectsItem
from .client_rollup import ClientRollup
from .client_status import ClientStatus
from .client_update_request import ClientUpdateRequest
from .client_update_request_billing import ClientUpdateRequestBilling
from .client_update_request_status import ClientUpdateRequestStatus
from .coded_error import CodedError
from .coded_error_detail import CodedErrorDetail
from .coded_error_detail_code import CodedErrorDetailCode
from .consent_create_request import ConsentCreateRequest
from .consent_create_request_evidence_kind import ConsentCreateRequestEvidenceKind
from .consent_create_request_grantor import ConsentCreateRequestGrantor
from .consent_event_list import ConsentEventList
from .consent_move_request import ConsentMoveRequest
from .consent_scope import ConsentScope
from .costs import Costs
from .costs_items_item import CostsItemsItem
from .create_api_key_request import CreateApiKeyRequest
from .create_budget_request import CreateBudgetRequest
from .create_budget_request_enforcement_mode import CreateBudgetRequestEnforcementMode
from .create_budget_request_period import CreateBudgetRequestPeriod
from .create_budget_request_scope import CreateBudgetRequestScope
from .create_order_request import CreateOrderRequest
from .create_order_request_budget_enforcement_mode import (
    CreateOrderRequestBudgetEnforcementMode,
)
from .create_order_request_execution_mode import CreateOrderRequestExecutionMode
from .create_order_request_intake_base import CreateOrderRequestIntakeBase
from .create_order_request_metadata import CreateOrderRequestMetadata
from .create_order_request_priority import CreateOrderRequestPriority
from .create_order_request_provider_overrides import CreateOrderRequestProviderOverrides
from .create_run_request import CreateRunRequest
from .create_run_request_intake import CreateRunRequestIntake
from .create_run_request_metadata import CreateRunRequestMetadata
from .create_run_request_priority import CreateRunRequestPriority
from .create_run_request_providers import CreateRunRequestProviders
from .created_api_key import CreatedApiKey
from .delivery_attempt import DeliveryAttempt
from .delivery_attempt_list import DeliveryAttemptList
from .delivery_attempt_outcome import DeliveryAttemptOutcome
from .delivery_health import DeliveryHealth
from .delivery_health_status import DeliveryHealthStatus
from .deprecate_workflow_request import DeprecateWorkflowRequest
from .document_create_request import DocumentCreateRequest
from .document_transition import DocumentTransition
from .dry_run_request import DryRunRequest
from .dry_run_request_intake_schema import DryRunRequestIntakeSchema
from .dry_run_response import DryRunResponse
from .dry_run_response_estimate import DryRunResponseEstimate
from .dry_run_response_steps_item import DryRunResponseStepsItem
from .estimate_request import EstimateRequest
from .estimate_request_budget_policy import EstimateRequestBudgetPolicy
from .estimate_request_providers import EstimateRequestProviders
from .estimate_request_runtime_steps_item import EstimateRequestRuntimeStepsItem
from .estimate_response import EstimateResponse
from .estimate_response_steps_item import EstimateResponseStepsItem
from .estimated_cost import EstimatedCost
from .estimated_cost_currency import EstimatedCostCurrency
from .etag_mismatch import EtagMismatch
from .etag_mismatch_detail import EtagMismatchDetail
from .etag_mismatch_detail_code import EtagMismatchDetailCode
from .etag_mismatch_detail_current import EtagMismatchDetailCurrent
from .etag_required import EtagRequired
from .etag_required_detail import EtagRequiredDetail
from .etag_required_detail_code import EtagRequiredDetailCode
from .font_capture import FontCapture
from .font_capture_status import FontCaptureStatus
from .intake_field import IntakeField
from .intake_field_artifact_class import IntakeFieldArtifactClass
from .intake_field_type import IntakeFieldType
from .intake_invalid import IntakeInvalid
from .intake_invalid_detail import IntakeInvalidDetail
from .intake_invalid_detail_code import IntakeInvalidDetailCode
from .intake_invalid_detail_error import IntakeInvalidDetailError
from .intake_invalid_detail_variations_item import IntakeInvalidDetailVariationsItem
from .keyed_invalid import KeyedInvalid
from .keyed_invalid_detail import KeyedInvalidDetail
from .keyed_invalid_detail_code import KeyedInvalidDetailCode
from .keyed_invalid_detail_error import KeyedInvalidDetailError
from .likeness_consent import LikenessConsent
from .likeness_consent_event import LikenessConsentEvent
from .likeness_consent_event_from_status_type_1 import (
    LikenessConsentEventFromStatusType1,
)
from .likeness_consent_event_from_status_type_2_type_1 import (
    LikenessConsentEventFromStatusType2Type1,
)
from .likeness_consent_event_from_status_type_3_type_1 import (
    LikenessConsentEventFromStatusType3Type1,
)
from .likeness_consent_event_to_status import LikenessConsentEventToStatus
from .likeness_consent_evidence_kind import LikenessConsentEvidenceKind
from .likeness_consent_grantor import LikenessConsentGrantor
from .likeness_consent_status import LikenessConsentStatus
from .list_artifacts_artifact_class import ListArtifactsArtifactClass
from .list_artifacts_status import ListArtifactsStatus
from .list_brands_include_archived import ListBrandsIncludeArchived
from .list_campaigns_include_archived import ListCampaignsIncludeArchived
from .list_campaigns_status import ListCampaignsStatus
from .list_characters_include_archived import ListCharactersIncludeArchived
from .list_costs_group_by import ListCostsGroupBy
from .list_op_tasks_status import ListOpTasksStatus
from .list_orders_status import ListOrdersStatus
from .list_runs_include_archived import ListRunsIncludeArchived
from .list_runs_metadata import ListRunsMetadata
from .list_runs_status import ListRunsStatus
from .list_webhook_endpoint_deliveries_status import ListWebhookEndpointDeliveriesStatus
from .list_workspace_clients_include_archived import ListWorkspaceClientsIncludeArchived
from .list_workspace_clients_status import ListWorkspaceClientsStatus
from .list_workspace_projects_client_id_type_0 import ListWorkspaceProjectsClientIdType0
from .list_workspace_projects_include_archived import (
    ListWorkspaceProjectsIncludeArchived,
)
from .list_workspace_subjects_include_erased import ListWorkspaceSubjectsIncludeErased
from .login_request import LoginRequest
from .login_throttled import LoginThrottled
from .login_throttled_detail import LoginThrottledDetail
from .login_throttled_detail_code import LoginThrottledDetailCode
from .logout_response_200 import LogoutResponse200
from .managed_request_note import ManagedRequestNote
from .managed_request_note_state_type_1 import ManagedRequestNoteStateType1
from .managed_request_note_state_type_2_type_1 import ManagedRequestNoteStateType2Type1
from .managed_request_note_state_type_3_type_1 import ManagedRequestNoteStateType3Type1
from .managed_request_status import ManagedRequestStatus
from .managed_request_status_campaign_status import ManagedRequestStatusCampaignStatus
from .managed_request_status_state_type_1 import ManagedRequestStatusStateType1
from .managed_request_status_state_type_2_type_1 import (
    ManagedRequestStatusStateType2Type1,
)
from .managed_request_status_state_type_3_type_1 import (
    ManagedRequestStatusStateType3Type1,
)
from .member_add_request import MemberAddRequest
from .member_update_request import MemberUpdateRequest
from .message_error import MessageError
from .model import Model
from .model_kind import ModelKind
from .model_list import ModelList
from .model_pricing import ModelPricing
from .move_run_request import MoveRunRequest
from .ops_notification import OpsNotification
from .ops_notification_kind import OpsNotificationKind
from .ops_notification_list import OpsNotificationList
from .ops_request_entry import OpsRequestEntry
from .ops_request_entry_from_state_type_1 import OpsRequestEntryFromStateType1
from .ops_request_entry_from_state_type_2_type_1 import (
    OpsRequestEntryFromStateType2Type1,
)
from .ops_request_entry_from_state_type_3_type_1 import (
    OpsRequestEntryFromStateType3Type1,
)
from .ops_request_entry_to_state_type_1 import OpsRequestEntryToStateType1
from .ops_request_entry_to_state_type_2_type_1 import OpsRequestEntryToStateType2Type1
from .ops_request_entry_to_state_type_3_type_1 import OpsRequestEntryToStateType3Type1
from .ops_request_entry_visibility import OpsRequestEntryVisibility
from .ops_request_update import OpsRequestUpdate
from .ops_request_update_note_visibility import OpsRequestUpdateNoteVisibility
from .ops_request_update_state import OpsRequestUpdateState
from .ops_request_view import OpsRequestView
from .ops_request_view_state_type_1 import OpsRequestViewStateType1
from .ops_request_view_state_type_2_type_1 import OpsRequestViewStateType2Type1
from .ops_request_view_state_type_3_type_1 import OpsRequestViewStateType3Type1
from .ops_task import OpsTask
from .ops_task_kind import OpsTaskKind
from .ops_task_list import OpsTaskList
from .ops_task_request_state_type_1 import OpsTaskRequestStateType1
from .ops_task_request_state_type_2_type_1 import OpsTaskRequestStateType2Type1
from .ops_task_request_state_type_3_type_1 import OpsTaskRequestStateType3Type1
from .ops_task_status import OpsTaskStatus
from .order import Order
from .order_counts import OrderCounts
from .order_execution_mode import OrderExecutionMode
from .order_list import OrderList
from .order_priority import OrderPriority
from .order_provider_overrides import OrderProviderOverrides
from .order_status import OrderStatus
from .patch_budget_request import PatchBudgetRequest
from .patch_budget_request_enforcement_mode import PatchBudgetRequestEnforcementMode
from .patch_budget_request_period import PatchBudgetRequestPeriod
from .persona import Persona
from .profile_confirm_request import ProfileConfirmRequest
from .profile_confirm_request_fields_item import ProfileConfirmRequestFieldsItem
from .project import Project
from .project_create_request import ProjectCreateRequest
from .project_create_request_kind import ProjectCreateRequestKind
from .project_kind import ProjectKind
from .project_list import ProjectList
from .project_update_request import ProjectUpdateRequest
from .public_article import PublicArticle
from .public_article_list import PublicArticleList
from .publication import Publication
from .publication_create_request import PublicationCreateRequest
from .publication_document import PublicationDocument
from .publication_document_status import PublicationDocumentStatus
from .publication_list import PublicationList
from .publication_update_request import PublicationUpdateRequest
from .publication_verify_result import PublicationVerifyResult
from .publication_with_secret import PublicationWithSecret
from .publish_workflow_request import PublishWorkflowRequest
from .publish_workflow_request_visibility import PublishWorkflowRequestVisibility
from .qa_check import QaCheck
from .qa_check_status import QaCheckStatus
from .qa_record import QaRecord
from .queue_batch_request import QueueBatchRequest
from .queue_batch_response import QueueBatchResponse
from .queue_batch_result_type_0 import QueueBatchResultType0
from .queue_batch_result_type_1 import QueueBatchResultType1
from .queue_count import QueueCount
from .queue_decision_entry import QueueDecisionEntry
from .queue_decision_request import QueueDecisionRequest
from .queue_decision_request_decision import QueueDecisionRequestDecision
from .queue_decision_request_patch_type_0 import QueueDecisionRequestPatchType0
from .queue_item import QueueItem
from .queue_item_hold_fields_item import QueueItemHoldFieldsItem
from .queue_item_hold_fields_item_type import QueueItemHoldFieldsItemType
from .queue_item_status import QueueItemStatus
from .queue_list import QueueList
from .refresh_request import RefreshRequest
from .register_request import RegisterRequest
from .request_validation_error import RequestValidationError
from .rerun_create_body import RerunCreateBody
from .rerun_create_body_providers import RerunCreateBodyProviders
from .rerun_dry_run import RerunDryRun
from .rerun_request import RerunRequest
from .rerun_request_intake import RerunRequestIntake
from .rerun_request_providers import RerunRequestProviders
from .retry_failed_order_response_200 import RetryFailedOrderResponse200
from .retry_failed_request import RetryFailedRequest
from .role import Role
from .run import Run
from .run_created_via import RunCreatedVia
from .run_decision import RunDecision
from .run_decision_decision import RunDecisionDecision
from .run_decision_patch_type_0 import RunDecisionPatchType0
from .run_failure_details_type_0 import RunFailureDetailsType0
from .run_filter import RunFilter
from .run_filter_metadata import RunFilterMetadata
from .run_filter_status import RunFilterStatus
from .run_intake import RunIntake
from .run_list import RunList
from .run_metadata import RunMetadata
from .run_review_gate_type_0 import RunReviewGateType0
from .run_status import RunStatus
from .run_step import RunStep
from .run_step_status import RunStepStatus
from .step_fallback import StepFallback
from .step_fallback_reason import StepFallbackReason
from .subject import Subject
from .subject_attestations import SubjectAttestations
from .subject_attestations_record import SubjectAttestationsRecord
from .subject_create_request import SubjectCreateRequest
from .subject_list import SubjectList
from .subject_update_request import SubjectUpdateRequest
from .subject_with_consents import SubjectWithConsents
from .template_deprecated import TemplateDeprecated
from .template_deprecated_detail import TemplateDeprecatedDetail
from .template_deprecated_detail_code import TemplateDeprecatedDetailCode
from .token_response import TokenResponse
from .token_response_token_type import TokenResponseTokenType
from .total_costs import TotalCosts
from .user import User
from .user_deletion_type_0 import UserDeletionType0
from .user_deletion_type_0_status import UserDeletionType0Status
from .user_summary import UserSummary
from .user_update_request import UserUpdateRequest
from .validation_issue import ValidationIssue
from .variation_spec_csv import VariationSpecCsv
from .variation_spec_csv_params import VariationSpecCsvParams
from .variation_spec_csv_resolver import VariationSpecCsvResolver
from .variation_spec_list import VariationSpecList
from .variation_spec_list_params import VariationSpecListParams
from .variation_spec_list_params_items_item import VariationSpecListParamsItemsItem
from .variation_spec_list_resolver import VariationSpecListResolver
from .variation_spec_matrix import VariationSpecMatrix
from .variation_spec_matrix_params import VariationSpecMatrixParams
from .variation_spec_matrix_params_axes import VariationSpecMatrixParamsAxes
from .variation_spec_matrix_resolver import VariationSpecMatrixResolver
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_attempt import WebhookEndpointAttempt
from .webhook_endpoint_attempt_outcome import WebhookEndpointAttemptOutcome
from .webhook_endpoint_create_request import WebhookEndpointCreateRequest
from .webhook_endpoint_create_request_events_item import (
    WebhookEndpointCreateRequestEventsItem,
)
from .webhook_endpoint_delivery import WebhookEndpointDelivery
from .webhook_endpoint_delivery_list import WebhookEndpointDeliveryList
from .webhook_endpoint_delivery_status import WebhookEndpointDeliveryStatus
from .webhook_endpoint_list import WebhookEndpointList
from .webhook_endpoint_test_result import WebhookEndpointTestResult
from .webhook_endpoint_test_result_status import WebhookEndpointTestResultStatus
from .webhook_endpoint_test_result_type import WebhookEndpointTestResultType
from .webhook_endpoint_update_request import WebhookEndpointUpdateRequest
from .webhook_endpoint_update_request_events_item import (
    WebhookEndpointUpdateRequestEventsItem,
)
from .webhook_endpoint_with_secret import WebhookEndpointWithSecret
from .workflow import Workflow
from .workflow_definition import WorkflowDefinition
from .workflow_invalid import WorkflowInvalid
from .workflow_invalid_detail import WorkflowInvalidDetail
from .workflow_invalid_detail_code import WorkflowInvalidDetailCode
from .workflow_invalid_detail_error import WorkflowInvalidDetailError
from .workflow_list import WorkflowList
from .workflow_summary import WorkflowSummary
from .workflow_summary_status import WorkflowSummaryStatus
from .workflow_summary_visibility import WorkflowSummaryVisibility
from .workflow_version import WorkflowVersion
from .workflow_version_list import WorkflowVersionList
from .workflow_version_state import WorkflowVersionState
from .workflow_version_visibility_type_1 import WorkflowVersionVisibilityType1
from .workflow_version_visibility_type_2_type_1 import (
    WorkflowVersionVisibilityType2Type1,
)
from .workflow_version_visibility_type_3_type_1 import (
    WorkflowVersionVisibilityType3Type1,
)
from .workspace import Workspace
from .workspace_create_request import WorkspaceCreateRequest
from .workspace_list import WorkspaceList
from .workspace_member import WorkspaceMember
from .workspace_member_list import WorkspaceMemberList

__all__ = (
    "AcceptGapRequest",
    "AccountDeletionRequest",
    "AdminRequired",
    "AdminRequiredDetail",
    "AdminRequiredDetailCode",
    "ApiKey",
    "ApiKeyList",
    "Artifact",
    "ArtifactArtifactClass",
    "ArtifactContent",
    "ArtifactList",
    "ArtifactQa",
    "ArtifactQaChecksItem",
    "ArtifactQaChecksItemStatus",
    "ArtifactStatus",
    "ArtifactTypeRef",
    "ArtifactTypeRefArtifactClass",
    "AuthorWorkflowRequest",
    "AuthorWorkflowRequestDefinition",
    "AuthorWorkflowRequestDefinitionIntakeSchema",
    "Brand",
    "BrandCreateRequest",
    "BrandFont",
    "BrandImportRequest",
    "BrandKind",
    "BrandList",
    "BrandProfile",
    "BrandProfileInput",
    "BrandProfilePatch",
    "BrandProfilePatchVisual",
    "BrandProfilePatchVoice",
    "BrandSnapshot",
    "BrandSnapshotList",
    "BrandVisual",
    "BrandVoice",
    "Budget",
    "BudgetEnforcementMode",
    "BudgetList",
    "BudgetPeriod",
    "BudgetRefusal",
    "BudgetRefusalDetail",
    "BudgetRefusalDetailCode",
    "BudgetRefusalDetailReason",
    "BudgetRefusalList",
    "BudgetRefusalRecord",
    "BudgetRefusalRecordDetail",
    "BudgetScope",
    "BulkCancelDryRun",
    "BulkCancelRequest",
    "BulkCancelResult",
    "BulkFailed",
    "BulkRerunDryRun",
    "BulkRerunRequest",
    "BulkRerunRequestIntake",
    "BulkRerunRequestProviders",
    "BulkRerunResult",
    "BulkRerunResultRerunsItem",
    "BulkSkipped",
    "BulkSkippedReason",
    "BulkSkippedStatus",
    "Campaign",
    "CampaignBrief",
    "CampaignCreateRequest",
    "CampaignList",
    "CampaignPatchRequest",
    "CampaignPatchRequestBrief",
    "CampaignRequestStateType1",
    "CampaignRequestStateType2Type1",
    "CampaignRequestStateType3Type1",
    "CampaignStatus",
    "CatalogList",
    "CatalogWorkflow",
    "CatalogWorkflowBudgetPolicy",
    "CatalogWorkflowGatesItem",
    "CatalogWorkflowIntakeSchema",
    "CatalogWorkflowRuntimeStepsItem",
    "CatalogWorkflowSummary",
    "CatalogWorkflowSummaryProvidedItem",
    "CatalogWorkflowSummaryReturned",
    "CatalogWorkflowSummaryStatus",
    "Character",
    "CharacterBinding",
    "CharacterBindingAssetKind",
    "CharacterBindingCreateRequest",
    "CharacterBindingCreateRequestAssetKind",
    "CharacterBindingCreateRequestProviderConsentStatus",
    "CharacterBindingProviderConsentStatus",
    "CharacterBindingUpdateRequest",
    "CharacterBindingUpdateRequestProviderConsentStatus",
    "CharacterCheckRequest",
    "CharacterCheckRequestMedia",
    "CharacterCheckResult",
    "CharacterCreateRequest",
    "CharacterCreateRequestFormat",
    "CharacterFormat",
    "CharacterList",
    "CharacterNotUsable",
    "CharacterNotUsableDetail",
    "CharacterNotUsableDetailCode",
    "CharacterReference",
    "CharacterReferenceCreateRequest",
    "CharacterReferenceCreateRequestRole",
    "CharacterReferenceRole",
    "CharacterUpdateRequest",
    "CharacterUsableToday",
    "CharacterVersion",
    "CharacterVersionCreateRequest",
    "CharacterVersionFormat",
    "CharacterVersionList",
    "CharacterVersionStatus",
    "Client",
    "ClientBilling",
    "ClientBillingInput",
    "ClientBillingInputModel",
    "ClientBillingInputPeriod",
    "ClientBillingModel",
    "ClientBillingPeriod",
    "ClientContact",
    "ClientContactCreateRequest",
    "ClientContactList",
    "ClientContactUpdateRequest",
    "ClientCreateRequest",
    "ClientCreateRequestStatus",
    "ClientEvent",
    "ClientEventFromStatusType1",
    "ClientEventFromStatusType2Type1",
    "ClientEventFromStatusType3Type1",
    "ClientEventList",
    "ClientEventToStatus",
    "ClientList",
    "ClientListTotals",
    "ClientProjectsItem",
    "ClientRollup",
    "ClientStatus",
    "ClientUpdateRequest",
    "ClientUpdateRequestBilling",
    "ClientUpdateRequestStatus",
    "CodedError",
    "CodedErrorDetail",
    "CodedErrorDetailCode",
    "ConsentCreateRequest",
    "ConsentCreateRequestEvidenceKind",
    "ConsentCreateRequestGrantor",
    "ConsentEventList",
    "ConsentMoveRequest",
    "ConsentScope",
    "Costs",
    "CostsItemsItem",
    "CreateApiKeyRequest",
    "CreateBudgetRequest",
    "CreateBudgetRequestEnforcementMode",
    "CreateBudgetRequestPeriod",
    "CreateBudgetRequestScope",
    "CreateOrderRequest",
    "CreateOrderRequestBudgetEnforcementMode",
    "CreateOrderRequestExecutionMode",
    "CreateOrderRequestIntakeBase",
    "CreateOrderRequestMetadata",
    "CreateOrderRequestPriority",
    "CreateOrderRequestProviderOverrides",
    "CreateRunRequest",
    "CreateRunRequestIntake",
    "CreateRunRequestMetadata",
    "CreateRunRequestPriority",
    "CreateRunRequestProviders",
    "CreatedApiKey",
    "DeliveryAttempt",
    "DeliveryAttemptList",
    "DeliveryAttemptOutcome",
    "DeliveryHealth",
    "DeliveryHealthStatus",
    "DeprecateWorkflowRequest",
    "DocumentCreateRequest",
    "DocumentTransition",
    "DryRunRequest",
    "DryRunRequestIntakeSchema",
    "DryRunResponse",
    "DryRunResponseEstimate",
    "DryRunResponseStepsItem",
    "EstimateRequest",
    "EstimateRequestBudgetPolicy",
    "EstimateRequestProviders",
    "EstimateRequestRuntimeStepsItem",
    "EstimateResponse",
    "EstimateResponseStepsItem",
    "EstimatedCost",
    "EstimatedCostCurrency",
    "EtagMismatch",
    "EtagMismatchDetail",
    "EtagMismatchDetailCode",
    "EtagMismatchDetailCurrent",
    "EtagRequired",
    "EtagRequiredDetail",
    "EtagRequiredDetailCode",
    "FontCapture",
    "FontCaptureStatus",
    "IntakeField",
    "IntakeFieldArtifactClass",
    "IntakeFieldType",
    "IntakeInvalid",
    "IntakeInvalidDetail",
    "IntakeInvalidDetailCode",
    "IntakeInvalidDetailError",
    "IntakeInvalidDetailVariationsItem",
    "KeyedInvalid",
    "KeyedInvalidDetail",
    "KeyedInvalidDetailCode",
    "KeyedInvalidDetailError",
    "LikenessConsent",
    "LikenessConsentEvent",
    "LikenessConsentEventFromStatusType1",
    "LikenessConsentEventFromStatusType2Type1",
    "LikenessConsentEventFromStatusType3Type1",
    "LikenessConsentEventToStatus",
    "LikenessConsentEvidenceKind",
    "LikenessConsentGrantor",
    "LikenessConsentStatus",
    "ListArtifactsArtifactClass",
    "ListArtifactsStatus",
    "ListBrandsIncludeArchived",
    "ListCampaignsIncludeArchived",
    "ListCampaignsStatus",
    "ListCharactersIncludeArchived",
    "ListCostsGroupBy",
    "ListOpTasksStatus",
    "ListOrdersStatus",
    "ListRunsIncludeArchived",
    "ListRunsMetadata",
    "ListRunsStatus",
    "ListWebhookEndpointDeliveriesStatus",
    "ListWorkspaceClientsIncludeArchived",
    "ListWorkspaceClientsStatus",
    "ListWorkspaceProjectsClientIdType0",
    "ListWorkspaceProjectsIncludeArchived",
    "ListWorkspaceSubjectsIncludeErased",
    "LoginRequest",
    "LoginThrottled",
    "LoginThrottledDetail",
    "LoginThrottledDetailCode",
    "LogoutResponse200",
    "ManagedRequestNote",
    "ManagedRequestNoteStateType1",
    "ManagedRequestNoteStateType2Type1",
    "ManagedRequestNoteStateType3Type1",
    "ManagedRequestStatus",
    "ManagedRequestStatusCampaignStatus",
    "ManagedRequestStatusStateType1",
    "ManagedRequestStatusStateType2Type1",
    "ManagedRequestStatusStateType3Type1",
    "MemberAddRequest",
    "MemberUpdateRequest",
    "MessageError",
    "Model",
    "ModelKind",
    "ModelList",
    "ModelPricing",
    "MoveRunRequest",
    "OpsNotification",
    "OpsNotificationKind",
    "OpsNotificationList",
    "OpsRequestEntry",
    "OpsRequestEntryFromStateType1",
    "OpsRequestEntryFromStateType2Type1",
    "OpsRequestEntryFromStateType3Type1",
    "OpsRequestEntryToStateType1",
    "OpsRequestEntryToStateType2Type1",
    "OpsRequestEntryToStateType3Type1",
    "OpsRequestEntryVisibility",
    "OpsRequestUpdate",
    "OpsRequestUpdateNoteVisibility",
    "OpsRequestUpdateState",
    "OpsRequestView",
    "OpsRequestViewStateType1",
    "OpsRequestViewStateType2Type1",
    "OpsRequestViewStateType3Type1",
    "OpsTask",
    "OpsTaskKind",
    "OpsTaskList",
    "OpsTaskRequestStateType1",
    "OpsTaskRequestStateType2Type1",
    "OpsTaskRequestStateType3Type1",
    "OpsTaskStatus",
    "Order",
    "OrderCounts",
    "OrderExecutionMode",
    "OrderList",
    "OrderPriority",
    "OrderProviderOverrides",
    "OrderStatus",
    "PatchBudgetRequest",
    "PatchBudgetRequestEnforcementMode",
    "PatchBudgetRequestPeriod",
    "Persona",
    "ProfileConfirmRequest",
    "ProfileConfirmRequestFieldsItem",
    "Project",
    "ProjectCreateRequest",
    "ProjectCreateRequestKind",
    "ProjectKind",
    "ProjectList",
    "ProjectUpdateRequest",
    "PublicArticle",
    "PublicArticleList",
    "Publication",
    "PublicationCreateRequest",
    "PublicationDocument",
    "PublicationDocumentStatus",
    "PublicationList",
    "PublicationUpdateRequest",
    "PublicationVerifyResult",
    "PublicationWithSecret",
    "PublishWorkflowRequest",
    "PublishWorkflowRequestVisibility",
    "QaCheck",
    "QaCheckStatus",
    "QaRecord",
    "QueueBatchRequest",
    "QueueBatchResponse",
    "QueueBatchResultType0",
    "QueueBatchResultType1",
    "QueueCount",
    "QueueDecisionEntry",
    "QueueDecisionRequest",
    "QueueDecisionRequestDecision",
    "QueueDecisionRequestPatchType0",
    "QueueItem",
    "QueueItemHoldFieldsItem",
    "QueueItemHoldFieldsItemType",
    "QueueItemStatus",
    "QueueList",
    "RefreshRequest",
    "RegisterRequest",
    "RequestValidationError",
    "RerunCreateBody",
    "RerunCreateBodyProviders",
    "RerunDryRun",
    "RerunRequest",
    "RerunRequestIntake",
    "RerunRequestProviders",
    "RetryFailedOrderResponse200",
    "RetryFailedRequest",
    "Role",
    "Run",
    "RunCreatedVia",
    "RunDecision",
    "RunDecisionDecision",
    "RunDecisionPatchType0",
    "RunFailureDetailsType0",
    "RunFilter",
    "RunFilterMetadata",
    "RunFilterStatus",
    "RunIntake",
    "RunList",
    "RunMetadata",
    "RunReviewGateType0",
    "RunStatus",
    "RunStep",
    "RunStepStatus",
    "StepFallback",
    "StepFallbackReason",
    "Subject",
    "SubjectAttestations",
    "SubjectAttestationsRecord",
    "SubjectCreateRequest",
    "SubjectList",
    "SubjectUpdateRequest",
    "SubjectWithConsents",
    "TemplateDeprecated",
    "TemplateDeprecatedDetail",
    "TemplateDeprecatedDetailCode",
    "TokenResponse",
    "TokenResponseTokenType",
    "TotalCosts",
    "User",
    "UserDeletionType0",
    "UserDeletionType0Status",
    "UserSummary",
    "UserUpdateRequest",
    "ValidationIssue",
    "VariationSpecCsv",
    "VariationSpecCsvParams",
    "VariationSpecCsvResolver",
    "VariationSpecList",
    "VariationSpecListParams",
    "VariationSpecListParamsItemsItem",
    "VariationSpecListResolver",
    "VariationSpecMatrix",
    "VariationSpecMatrixParams",
    "VariationSpecMatrixParamsAxes",
    "VariationSpecMatrixResolver",
    "WebhookEndpoint",
    "WebhookEndpointAttempt",
    "WebhookEndpointAttemptOutcome",
    "WebhookEndpointCreateRequest",
    "WebhookEndpointCreateRequestEventsItem",
    "WebhookEndpointDelivery",
    "WebhookEndpointDeliveryList",
    "WebhookEndpointDeliveryStatus",
    "WebhookEndpointList",
    "WebhookEndpointTestResult",
    "WebhookEndpointTestResultStatus",
    "WebhookEndpointTestResultType",
    "WebhookEndpointUpdateRequest",
    "WebhookEndpointUpdateRequestEventsItem",
    "WebhookEndpointWithSecret",
    "Workflow",
    "WorkflowDefinition",
    "WorkflowInvalid",
    "WorkflowInvalidDetail",
    "WorkflowInvalidDetailCode",
    "WorkflowInvalidDetailError",
    "WorkflowList",
    "WorkflowSummary",
    "WorkflowSummaryStatus",
    "WorkflowSummaryVisibility",
    "WorkflowVersion",
    "WorkflowVersionList",
    "WorkflowVersionState",
    "WorkflowVersionVisibilityType1",
    "WorkflowVersionVisibilityType2Type1",
    "WorkflowVersionVisibilityType3Type1",
    "Workspace",
    "WorkspaceCreateRequest",
    "WorkspaceList",
    "WorkspaceMember",
    "WorkspaceMemberList",
)
