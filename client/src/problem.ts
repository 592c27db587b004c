// Errors from the API as RFC 9457 problems, typed from the document.
import type { ApiProblem } from "./paths.js";

/** What the client reports for an answer that is not a problem document (a proxy's HTML page, an empty body). */
export interface UnexpectedResponse {
  type: "about:blank";
  code: "unexpected_response";
  status: number;
  title: string;
  detail: string;
}

export type Problem = ApiProblem | UnexpectedResponse;

/**
 * An error answer. `problem` is the RFC 9457 body: narrow on `problem.code`
 * (`switch (error.problem.code)`); its extension members are typed as the document types them.
 */
export class ProblemError extends Error {
  override readonly name = "ProblemError";
  constructor(
    readonly problem: Problem,
    readonly response: Response,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
  }

  get status(): number {
    return this.problem.status;
  }
}

const isProblem = (body: unknown): body is ApiProblem =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as { code?: unknown }).code === "string" &&
  typeof (body as { status?: unknown }).status === "number";

/** The ProblemError for an error answer, whatever its body (openapi-fetch gives the parsed JSON, or the text). */
export function problemError(body: unknown, response: Response): ProblemError {
  if (isProblem(body)) return new ProblemError(body, response);
  const text = typeof body === "string" ? body : JSON.stringify(body ?? "");
  return new ProblemError(
    {
      type: "about:blank",
      code: "unexpected_response",
      status: response.status,
      title: response.statusText || `HTTP ${response.status}`,
      detail: text.slice(0, 200),
    },
    response,
  );
}
