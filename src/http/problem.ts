import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "./error-codes";

export interface FieldError {
  path: string;
  message: string;
}

export interface ProblemInit {
  status: ContentfulStatusCode;
  code: ErrorCode;
  title: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  extensions?: Record<string, unknown>;
}

// The one error type of the API, made by the factories in errors.ts. Anything
// thrown that is not an ApiError is a bug and becomes a 500 `internal_error` in app.onError.
export class ApiError extends Error {
  readonly init: ProblemInit;

  constructor(init: ProblemInit) {
    super(init.detail);
    this.name = "ApiError";
    this.init = init;
  }
}

/** The most field errors a problem lists; `errorCount` says how many there were. */
export const MAX_LISTED_ERRORS = 20;

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

// RFC 9457 body. `type` is a stable, non-resolvable tag URI (RFC 4151) per code,
// so clients can switch on either `type` or `code`. `errors` holds the first
// MAX_LISTED_ERRORS, `errorCount` how many there were: the answer stays small however bad the body.
export function problemBody(init: ProblemInit, requestId: string) {
  return {
    type: `tag:contact-info-batch,2026:problems/${init.code}`,
    title: init.title,
    status: init.status,
    detail: init.detail,
    code: init.code,
    requestId,
    ...(init.errors ? { errors: init.errors.slice(0, MAX_LISTED_ERRORS), errorCount: init.errors.length } : {}),
    ...init.extensions,
  };
}

export function problemResponse(init: ProblemInit, requestId: string): Response {
  return new Response(JSON.stringify(problemBody(init, requestId)), {
    status: init.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, "x-request-id": requestId, ...init.headers },
  });
}
