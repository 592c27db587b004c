import type { Environment } from "../base/environment";
import type { AttemptError } from "./endpoint-events";
import { signWebhook } from "./signature";
import { destinationOf } from "./webhook-destination";

/** One attempt's answer: the receiver's status (null without one), why it is not usable, and how long it took. */
export interface Attempt {
  statusCode: number | null;
  error: AttemptError | null;
  durationMs: number;
}

/**
 * One signed POST (Standard Webhooks), signed with each of `secrets` (the newest first: during a
 * rotation a receiver holding either secret verifies it). Redirects are never followed: they could
 * lead anywhere, so a 3xx is the error `redirect`.
 */
async function postSigned(
  message: { url: string; id: string; body: string; secrets: readonly string[] },
  timeoutMs: number,
): Promise<Attempt> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signatures = await Promise.all(
    message.secrets.map((secret) => signWebhook(secret, message.id, timestamp, message.body)),
  );
  const started = Date.now();
  const took = () => Date.now() - started;
  try {
    const response = await fetch(message.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": "contact-info-batch-webhooks/1",
        "webhook-id": message.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatures.join(" "),
      },
      body: message.body,
    });
    await response.body?.cancel();
    const redirect = response.status >= 300 && response.status < 400;
    return { statusCode: response.status, error: redirect ? "redirect" : null, durationMs: took() };
  } catch (error) {
    const timeout = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    return { statusCode: null, error: timeout ? "timeout" : "refused", durationMs: took() };
  }
}

/** An attempt, or why nothing was sent; `refusal` says why a destination was refused. */
export type CheckedAttempt = Attempt & { refusal?: string };

/**
 * postSigned, once the URL's destination is checked again (webhook-destination.ts): its name may have
 * been re-pointed inside since it was accepted (DNS rebinding). Refused: nothing sent, never retried;
 * not known (the resolver did not answer): nothing sent, retried.
 */
export async function postChecked(
  env: Env,
  environment: Environment,
  message: { url: string; id: string; body: string; secrets: readonly string[] },
  timeoutMs: number,
): Promise<CheckedAttempt> {
  const destination = await destinationOf(env, message.url, environment);
  if (destination.kind === "refused") {
    return { statusCode: null, error: "destination_refused", durationMs: 0, refusal: destination.problem };
  }
  if (destination.kind === "unknown") return { statusCode: null, error: "destination_unresolved", durationMs: 0 };
  return postSigned(message, timeoutMs);
}
