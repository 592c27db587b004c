// What the client's calls share: a request sent again after each wait the server asks for (429, and
// 409 while an idempotent submit is still running), and every other error answer thrown as a ProblemError.
import { type Problem, type ProblemError, problemError } from "./problem.js";
import { parseRateLimit, parseRetryAfter } from "./rate-limit.js";

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Seconds the server asked us to wait before repeating this request, or undefined when repeating will not help. */
function askedToWait(error: ProblemError): number | undefined {
  const { response, problem } = error;
  const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
  if (response.status === 429)
    return retryAfter ?? parseRateLimit(response.headers.get("RateLimit"))?.resetSeconds ?? 1;
  if (response.status === 409 && problem.code === "idempotency_in_progress") return retryAfter ?? 1;
  return undefined;
}

/** Sends until the answer is a success or an error that waiting will not fix; `onWait` is told of each wait. */
export function sender(onWait: ((wait: { seconds: number; problem: Problem }) => void) | undefined) {
  return async function send<R extends { data?: unknown; error?: unknown; response: Response }>(
    request: () => Promise<R>,
    signal: AbortSignal | undefined,
  ): Promise<{ data: NonNullable<R["data"]>; response: Response }> {
    for (;;) {
      const { data, error, response } = await request();
      if (response.ok && data !== undefined && data !== null) return { data, response };
      const failure = problemError(error, response);
      const seconds = askedToWait(failure);
      if (seconds === undefined) throw failure;
      onWait?.({ seconds, problem: failure.problem });
      await sleep(seconds * 1000, signal);
    }
  };
}
