import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Environment } from "../environment";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { rateLimitHeaders } from "../rate-limit/headers";
import type { WindowUsage } from "../rate-limit/sliding-window";
import { ApiError, type FieldError, type ProblemInit } from "./problem";

/** Every problem code the API answers with, and its status: a code always means one status. */
export const ERROR_CODES = {
  bad_request: 400,
  incomplete_body: 400,
  invalid_idempotency_key: 400,
  invalid_query: 400,
  invalid_request: 400,
  malformed_json: 400,
  webhook_not_configured: 400,
  invalid_api_key: 401,
  missing_api_key: 401,
  environment_mismatch: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_in_progress: 409,
  batch_deleted: 410,
  batch_expired: 410,
  payload_too_large: 413,
  too_many_items: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_CODES;
type ErrorStatus = (typeof ERROR_CODES)[ErrorCode];
type CodeWithStatus<S extends ErrorStatus> = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends S ? C : never }[ErrorCode];

/** The problem `title` of each status the API answers with. */
const STATUS_TITLES = {
  400: "Bad Request",
  401: "Unauthorized",
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
} as const satisfies Record<ErrorStatus, string>;

type ProblemExtras = Pick<ProblemInit, "errors" | "headers" | "extensions">;

/** A problem's status and title, both read from its code. */
export function problemInit(code: ErrorCode, detail: string, extras: ProblemExtras = {}): ProblemInit {
  const status = ERROR_CODES[code];
  return { status, code, title: STATUS_TITLES[status], detail, ...extras };
}

const problem = (code: ErrorCode, detail: string, extras?: ProblemExtras): ApiError => new ApiError(problemInit(code, detail, extras));

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

export const missingApiKey = (): ApiError => unauthorized("missing_api_key", "Send your API key in the x-api-key header.");

export const invalidApiKey = (): ApiError => unauthorized("invalid_api_key", "The API key is unknown or has been revoked.");

export const malformedJson = (): ApiError => badRequest("malformed_json", "The body is not valid UTF-8 JSON.");

export const invalidIdempotencyKey = (maxLength: number): ApiError =>
  badRequest("invalid_idempotency_key", `Idempotency-Key must be 1 to ${maxLength} visible ASCII characters.`, [
    { path: "Idempotency-Key", message: `1 to ${maxLength} visible ASCII characters` },
  ]);

export const webhookNotConfigured = (): ApiError =>
  badRequest("webhook_not_configured", "This API key has no webhook signing secret; create a new key to use webhooks.");

export const environmentMismatch = (keyEnvironment: Environment): ApiError =>
  problem("environment_mismatch", `This is a ${keyEnvironment} key; use it under /v2/${keyEnvironment}/.`);

export const notFound = (detail = "No resource exists at this path."): ApiError => problem("not_found", detail);

export const methodNotAllowed = (method: string, allowed: readonly string[]): ApiError =>
  problem("method_not_allowed", `${method} is not supported here; use ${allowed.join(" or ")}.`, {
    headers: { allow: allowed.join(", ") },
  });

export const idempotencyInProgress = (retryAfterSeconds: number): ApiError =>
  problem("idempotency_in_progress", `A request with this Idempotency-Key is still being processed. Retry in ${retryAfterSeconds} s.`, {
    headers: { "retry-after": String(retryAfterSeconds) },
    extensions: { retryAfterSeconds },
  });

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
  problem("too_many_items", `A batch holds at most ${maxItems} items; this one has ${count}. Split it into several batches.`, {
    extensions: { maxItems },
  });

export const unsupportedMediaType = (): ApiError =>
  problem("unsupported_media_type", "Send the body as JSON with content-type: application/json.", {
    headers: { "accept-post": "application/json" },
  });

export const idempotencyKeyReused = (): ApiError =>
  problem(
    "idempotency_key_reused",
    "This Idempotency-Key was already used with a different request (method, path, query, Content-Type or body). Use a new key for a new request.",
  );

export const rateLimited = (endpointType: EndpointType, usage: WindowUsage): ApiError =>
  problem(
    "rate_limited",
    `Rate limit of ${usage.limit} requests per ${usage.windowSeconds} s for ${endpointType} exceeded; retry in ${usage.resetSeconds} s.`,
    {
      headers: { "retry-after": String(usage.resetSeconds), ...rateLimitHeaders(endpointType, usage) },
      extensions: { endpointType, limit: usage.limit, windowSeconds: usage.windowSeconds, retryAfterSeconds: usage.resetSeconds },
    },
  );

export const internalError = (): ApiError => problem("internal_error", "Something went wrong on our side; retry later.");
