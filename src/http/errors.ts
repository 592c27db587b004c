import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Environment } from "../base/environment";
import { type CodeWithStatus, ERROR_CODES, type ErrorCode, STATUS_TITLES } from "./error-codes";
import { ApiError, type FieldError, type ProblemInit } from "./problem";

type ProblemExtras = Pick<ProblemInit, "errors" | "headers" | "extensions">;

/** A problem's status and title, both read from its code. */
export function problemInit(code: ErrorCode, detail: string, extras: ProblemExtras = {}): ProblemInit {
  const status = ERROR_CODES[code];
  return { status, code, title: STATUS_TITLES[status], detail, ...extras };
}

const problem = (code: ErrorCode, detail: string, extras?: ProblemExtras): ApiError =>
  new ApiError(problemInit(code, detail, extras));

export const badRequest = (code: CodeWithStatus<400>, detail: string, errors?: FieldError[]): ApiError =>
  problem(code, detail, errors ? { errors } : {});

/**
 * An HTTPException that Hono raised for a client mistake: its own status, but
 * always the generic `bad_request` code and title.
 */
export const clientError = (status: ContentfulStatusCode, detail: string): ApiError =>
  new ApiError({ ...problemInit("bad_request", detail), status });

const unauthorized = (code: CodeWithStatus<401>, detail: string): ApiError =>
  problem(code, detail, { headers: { "www-authenticate": 'ApiKey header="x-api-key"' } });

export const missingApiKey = (): ApiError =>
  unauthorized("missing_api_key", "Send your API key in the x-api-key header.");

export const invalidApiKey = (): ApiError =>
  unauthorized("invalid_api_key", "The API key is unknown or has been revoked.");

/**
 * An OAuth access token at /mcp that is unknown, expired, for another resource, or whose connection
 * was ended (or its key revoked); `challenge` is the WWW-Authenticate that sends the client to discovery.
 */
export const invalidToken = (challenge = 'Bearer error="invalid_token"'): ApiError =>
  problem("invalid_token", "The access token is unknown or expired, or its connection was ended: authorize again.", {
    headers: { "www-authenticate": challenge },
  });

/** An authorization request (the consent page) that cannot be answered with a redirect to the client. */
export const invalidAuthorizationRequest = (detail: string): ApiError =>
  badRequest("invalid_authorization_request", detail);

/** The assistant's Client ID Metadata Document could not be fetched or is not valid: its publisher's fault. */
export const clientMetadataUnavailable = (): ApiError =>
  problem(
    "client_metadata_unavailable",
    "The assistant's client metadata document could not be fetched or is not valid; try again later, or tell its publisher.",
  );

export const malformedJson = (): ApiError => badRequest("malformed_json", "The body is not valid UTF-8 JSON.");

export const invalidIdempotencyKey = (maxLength: number): ApiError =>
  badRequest("invalid_idempotency_key", `Idempotency-Key must be 1 to ${maxLength} visible ASCII characters.`, [
    { path: "Idempotency-Key", message: `1 to ${maxLength} visible ASCII characters` },
  ]);

export const webhookNotConfigured = (): ApiError =>
  badRequest("webhook_not_configured", "This API key has no webhook signing secret; create a new key to use webhooks.");

export const environmentMismatch = (keyEnvironment: Environment): ApiError =>
  problem("environment_mismatch", `This is a ${keyEnvironment} key; use it under /v2/${keyEnvironment}/.`);

/** Feedback named a value the item was not given. */
export const notDelivered = (detail: string): ApiError => badRequest("not_delivered", detail);

export const notFound = (detail = "No resource exists at this path."): ApiError => problem("not_found", detail);

export const methodNotAllowed = (method: string, allowed: readonly string[]): ApiError =>
  problem("method_not_allowed", `${method} is not supported here; use ${allowed.join(" or ")}.`, {
    headers: { allow: allowed.join(", ") },
  });

export const idempotencyInProgress = (retryAfterSeconds: number): ApiError =>
  problem(
    "idempotency_in_progress",
    `A request with this Idempotency-Key is still being processed. Retry in ${retryAfterSeconds} s.`,
    {
      headers: { "retry-after": String(retryAfterSeconds) },
      extensions: { retryAfterSeconds },
    },
  );

export const tooManyStreams = (scope: "customer" | "batch", maxStreams: number, retryAfterSeconds: number): ApiError =>
  problem(
    "too_many_streams",
    scope === "customer"
      ? `You have ${maxStreams} event streams open in this environment, the most at once; close one, or retry in ${retryAfterSeconds} s.`
      : `This batch has ${maxStreams} event streams open, the most at once; close one, or retry in ${retryAfterSeconds} s.`,
    { headers: { "retry-after": String(retryAfterSeconds) }, extensions: { scope, maxStreams, retryAfterSeconds } },
  );

export const batchExpired = (expiredAt: string): ApiError =>
  problem("batch_expired", `This batch's data was deleted at ${expiredAt}, at the end of its retention period.`, {
    extensions: { expiredAt },
  });

export const batchDeleted = (deletedAt: string): ApiError =>
  problem("batch_deleted", `This batch was deleted at ${deletedAt} by its owner; its items and results are gone.`, {
    extensions: { deletedAt },
  });

export const payloadTooLarge = (maxBytes: number): ApiError =>
  problem("payload_too_large", `The body must be at most ${maxBytes} bytes.`, { extensions: { maxBytes } });

export const tooManyItems = (maxItems: number, count: number): ApiError =>
  problem(
    "too_many_items",
    `A batch holds at most ${maxItems} items; this one has ${count}. Split it into several batches.`,
    {
      extensions: { maxItems },
    },
  );

export const unsupportedMediaType = (): ApiError =>
  problem("unsupported_media_type", "Send the body as JSON with content-type: application/json.", {
    headers: { "accept-post": "application/json" },
  });

export const idempotencyKeyReused = (): ApiError =>
  problem(
    "idempotency_key_reused",
    "This Idempotency-Key was already used with a different request (method, path, query, Content-Type or body). Use a new key for a new request.",
  );

export const internalError = (): ApiError =>
  problem("internal_error", "Something went wrong on our side; retry later.");

export const batchNotCompleted = (): ApiError =>
  problem("batch_not_completed", "This batch is still running; sync it to a CRM once it has completed.");

export const crmNotConnected = (provider: string): ApiError =>
  problem(
    "crm_not_connected",
    `No ${provider} connection in this environment: connect it with PUT …/integrations/${provider}.`,
  );

export const crmUnauthorized = (provider: string): ApiError =>
  problem(
    "crm_unauthorized",
    `${provider} refused the saved token (expired or revoked): reconnect it with PUT …/integrations/${provider}.`,
  );

export const crmSyncNotAppliable = (why: string): ApiError => problem("crm_sync_not_appliable", why);

export const crmSyncNotUndoable = (why: string): ApiError => problem("crm_sync_not_undoable", why);

export const crmTokenRefused = (provider: string, missingScopes = false): ApiError =>
  problem(
    "crm_token_refused",
    missingScopes
      ? `${provider} says this token lacks a scope it needs; nothing was saved. Check the token's scopes (contacts and lists read and write) in ${provider}.`
      : `${provider} refused this token; nothing was saved. Check it in ${provider}.`,
  );

export const crmAccountChanged = (provider: string): ApiError =>
  problem(
    "crm_account_changed",
    `The ${provider} connection now points to another ${provider} account than the one this sync was previewed against; nothing was written. Start a new sync (a dry run) on this account.`,
  );

export const crmListNotFound = (provider: string, listId: string): ApiError =>
  problem("crm_list_not_found", `${provider} has no list ${JSON.stringify(listId.slice(0, 100))} this token may read.`);

export const crmRefused = (provider: string, status: number, missingScopes = false): ApiError =>
  problem(
    "crm_refused",
    missingScopes
      ? `${provider} says the connected token lacks a scope (${status}): check its scopes (contacts and lists read and write).`
      : `${provider} refused the request (${status}).`,
  );

export const crmBadAnswer = (provider: string, retryAfterSeconds: number): ApiError =>
  problem(
    "crm_bad_answer",
    `${provider} answered what its API does not (a page, an unknown shape, an answer not finished in time, pages without end): its fault, not yours; retry in ${retryAfterSeconds} s.`,
    { headers: { "retry-after": String(retryAfterSeconds) }, extensions: { retryAfterSeconds } },
  );

export const crmUnavailable = (provider: string, retryAfterSeconds: number): ApiError =>
  problem("crm_unavailable", `${provider} did not answer, or asked us to wait; retry in ${retryAfterSeconds} s.`, {
    headers: { "retry-after": String(retryAfterSeconds) },
    extensions: { retryAfterSeconds },
  });

export const tooManyWebhookEndpoints = (max: number): ApiError =>
  problem(
    "too_many_webhook_endpoints",
    `This environment already has ${max} webhook endpoints, the most it may have: delete one first.`,
  );

/**
 * A submit whose cap (its maxCredits, else its estimate's maximum) is more than what remains of the
 * month's budget: the customer's, or the calling key's (`scope`). Nothing was created.
 */
export const budgetExceeded = (refusal: {
  scope: "customer" | "key";
  monthlyCredits: number;
  remaining: number;
  cap: number;
}): ApiError =>
  problem(
    "budget_exceeded",
    `This batch may cost up to ${refusal.cap} credits, and ${refusal.remaining} remain of ${
      refusal.scope === "key" ? "this API key's" : "your"
    } monthly budget of ${refusal.monthlyCredits}. Lower its maxCredits or its items, or raise the budget.`,
    { extensions: { ...refusal } },
  );
