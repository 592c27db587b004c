// What a sync does after a step failed: a pure decision beside the object (crm-sync.ts), tested alone.
import type { ErrorCode } from "../http/error-codes";
import { CrmBadAnswerError, CrmRefusedError, CrmUnauthorizedError, CrmUnavailableError } from "./crm-http";
import { BatchGoneError } from "./sync-steps";

// A CRM that keeps answering 429 or 5xx: the sync waits as told, this many times in a row, then fails.
export const MAX_WAITS = 20;
// After an unexpected error the alarm tries again this much later (and fails after MAX_WAITS).
const ERROR_WAIT_SECONDS = 30;

export type AfterFailure =
  /** The sync ends failed, with this code and words for the customer. */
  | { fail: ErrorCode; message: string }
  /** The step is tried again after `waitSeconds`; `unexpected` when no CRM asked for the wait (worth a log line). */
  | { waitSeconds: number; unexpected: boolean };

/**
 * A refused token, a refused request or a batch gone end the sync (what was written stays counted);
 * a CRM asking to wait (429, 5xx, the governor holding the call) is waited out, as is anything else,
 * `MAX_WAITS` times in a row at most.
 */
export function afterFailure(error: unknown, provider: string, waitsSoFar: number): AfterFailure {
  if (error instanceof CrmUnauthorizedError)
    return {
      fail: "crm_unauthorized",
      message: `${provider} refused the token (expired or revoked): reconnect it (PUT …/integrations/${provider}) and sync again; the counts say what was written before.`,
    };
  if (error instanceof CrmRefusedError)
    return {
      fail: "crm_refused",
      message: `${provider} refused a request (${error.status}); nothing more was written.`,
    };
  if (error instanceof BatchGoneError)
    return { fail: error.code, message: "The batch can no longer be read: deleted, or past its retention." };
  if (waitsSoFar >= MAX_WAITS && error instanceof CrmBadAnswerError)
    return {
      fail: "crm_bad_answer",
      message: `${provider} kept answering what its API does not (${error.message}); sync again later.`,
    };
  if (waitsSoFar >= MAX_WAITS)
    return {
      fail: "crm_unavailable",
      message: `${provider} did not answer after ${MAX_WAITS} tries; sync again later.`,
    };
  return error instanceof CrmUnavailableError
    ? { waitSeconds: error.retryAfterSeconds, unexpected: false }
    : { waitSeconds: ERROR_WAIT_SECONDS, unexpected: true };
}
