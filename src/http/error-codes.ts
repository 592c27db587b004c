import type { ContentfulStatusCode } from "hono/utils/http-status";

// The codes apart from the errors made from them (errors.ts), so that ApiError
// (problem.ts) can name its code without importing its own factories.

/** Every problem code the API answers with, and its status: a code always means one status. */
export const ERROR_CODES = {
  bad_request: 400,
  incomplete_body: 400,
  invalid_idempotency_key: 400,
  invalid_last_event_id: 400,
  invalid_query: 400,
  invalid_request: 400,
  invalid_authorization_request: 400,
  malformed_json: 400,
  not_delivered: 400,
  webhook_not_configured: 400,
  invalid_api_key: 401,
  missing_api_key: 401,
  invalid_token: 401,
  budget_exceeded: 402,
  environment_mismatch: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_in_progress: 409,
  batch_not_completed: 409,
  crm_not_connected: 409,
  crm_unauthorized: 409,
  crm_sync_not_appliable: 409,
  crm_sync_not_undoable: 409,
  crm_account_changed: 409,
  too_many_webhook_endpoints: 409,
  batch_deleted: 410,
  batch_expired: 410,
  payload_too_large: 413,
  too_many_items: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  crm_token_refused: 422,
  crm_list_not_found: 422,
  crm_refused: 422,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  crm_bad_answer: 502,
  client_metadata_unavailable: 502,
  crm_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_CODES;
type ErrorStatus = (typeof ERROR_CODES)[ErrorCode];
export type CodeWithStatus<S extends ErrorStatus> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends S ? C : never;
}[ErrorCode];

/** The problem `title` of each status the API answers with. */
export const STATUS_TITLES = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
} as const satisfies Record<ErrorStatus, string>;
