// One example problem per code, for the document (problems.ts): made by the Worker's own factories, so no
// error text is restated. Nothing is made at the top level: the Worker's build drops this with the route docs.
import { DEFAULT_MAX_BATCH_ITEMS } from "../base/defaults";
import { parseSubmission } from "../batch/submission";
import { parseEventsRequest } from "../contact-info/events-query";
import { MAX_PAGE_SIZE, parseStatusQuery } from "../contact-info/status-query";
import { notDeliveredDetail } from "../credits/feedback";
import { CRM_PROVIDERS } from "../crm/crms";
import { IncompleteBodyError } from "../http/body";
import type { ErrorCode } from "../http/error-codes";
import {
  batchDeleted,
  batchExpired,
  batchNotCompleted,
  budgetExceeded,
  clientError,
  clientMetadataUnavailable,
  crmAccountChanged,
  crmBadAnswer,
  crmListNotFound,
  crmNotConnected,
  crmRefused,
  crmSyncNotAppliable,
  crmSyncNotUndoable,
  crmTokenRefused,
  crmUnauthorized,
  crmUnavailable,
  environmentMismatch,
  idempotencyInProgress,
  idempotencyKeyReused,
  internalError,
  invalidApiKey,
  invalidAuthorizationRequest,
  invalidIdempotencyKey,
  invalidToken,
  malformedJson,
  methodNotAllowed,
  missingApiKey,
  notDelivered,
  notFound,
  payloadTooLarge,
  tooManyItems,
  tooManyStreams,
  tooManyWebhookEndpoints,
  unsupportedMediaType,
  webhookNotConfigured,
} from "../http/errors";
import type { ApiError } from "../http/problem";
import { MAX_KEY_LENGTH } from "../idempotency/record-policy";
import { rateLimited } from "../rate-limit/rate-limited";
import { MAX_STREAMS_PER_BATCH, STREAM_RETRY_AFTER_SECONDS } from "../rate-limit/stream-leases";
import { MAX_ENDPOINTS } from "../webhooks/endpoint-events";
import { refusal } from "./refusal";

/**
 * One example per code, made by the Worker's own factories or by running the parser
 * that raises it, so no error text is restated here (operations may pass their own).
 */
// Each CRM problem as the first declared CRM says it.
const crm = CRM_PROVIDERS[0];

export const examples = (): Record<ErrorCode, ApiError> => ({
  // The detail is whatever Hono's HTTPException said; the code is always this one.
  bad_request: clientError(400, "The request could not be read."),
  incomplete_body: new IncompleteBodyError(undefined),
  invalid_idempotency_key: invalidIdempotencyKey(MAX_KEY_LENGTH),
  invalid_last_event_id: refusal(() => parseEventsRequest({}, "latest")),
  invalid_query: refusal(() => parseStatusQuery({ limit: String(MAX_PAGE_SIZE + 1) })),
  invalid_request: refusal(() => parseSubmission({ items: [] }, DEFAULT_MAX_BATCH_ITEMS, "live")),
  invalid_authorization_request: invalidAuthorizationRequest("Invalid redirect URI"),
  malformed_json: malformedJson(),
  not_delivered: notDelivered(notDeliveredDetail(0, "email_bounced")),
  webhook_not_configured: webhookNotConfigured(),
  invalid_api_key: invalidApiKey(),
  missing_api_key: missingApiKey(),
  invalid_token: invalidToken(),
  environment_mismatch: environmentMismatch("test"),
  not_found: notFound(),
  method_not_allowed: methodNotAllowed("PUT", ["GET"]),
  idempotency_in_progress: idempotencyInProgress(42),
  batch_not_completed: batchNotCompleted(),
  crm_not_connected: crmNotConnected(crm),
  crm_unauthorized: crmUnauthorized(crm),
  crm_sync_not_appliable: crmSyncNotAppliable("This sync is running; apply a completed dry run."),
  crm_sync_not_undoable: crmSyncNotUndoable(
    "This sync was undone already (sync 3e1cab3a-0527-4fea-987c-d486f470829c).",
  ),
  too_many_webhook_endpoints: tooManyWebhookEndpoints(MAX_ENDPOINTS),
  crm_token_refused: crmTokenRefused(crm),
  crm_list_not_found: crmListNotFound(crm, "123"),
  crm_refused: crmRefused(crm, 403),
  crm_unavailable: crmUnavailable(crm, 10),
  crm_bad_answer: crmBadAnswer(crm, 10),
  client_metadata_unavailable: clientMetadataUnavailable(),
  crm_account_changed: crmAccountChanged(crm),
  budget_exceeded: budgetExceeded({ scope: "customer", monthlyCredits: 5000, remaining: 120, cap: 300 }),
  batch_deleted: batchDeleted("2026-11-23T09:30:00.000Z"),
  batch_expired: batchExpired("2026-12-22T10:00:00.000Z"),
  payload_too_large: payloadTooLarge(5_000_000),
  too_many_items: tooManyItems(DEFAULT_MAX_BATCH_ITEMS, 12_000),
  unsupported_media_type: unsupportedMediaType(),
  idempotency_key_reused: idempotencyKeyReused(),
  rate_limited: rateLimited("contact_info_request", {
    limit: 50,
    windowSeconds: 60,
    used: 50,
    remaining: 0,
    resetSeconds: 12,
  }),
  too_many_streams: tooManyStreams("batch", MAX_STREAMS_PER_BATCH, STREAM_RETRY_AFTER_SECONDS),
  internal_error: internalError(),
});
