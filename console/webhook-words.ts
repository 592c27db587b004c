// The webhooks tab's words (issue 49): an endpoint's events and state, and each delivery attempt,
// as a person reads them rather than as the API's codes.
import type { components } from "../client/src/schema";

export type Endpoint = components["schemas"]["WebhookEndpoint"];
type EventName = Endpoint["events"][number];

/**
 * A delivery of the log, as src/webhooks/views.ts answers it. Written out here: the OpenAPI document's
 * "WebhookDelivery" component is a batch's own webhook status (two schemas share the id), so the
 * generated type of GET …/webhook-deliveries is not this one.
 */
export interface Delivery {
  id: string;
  endpointId: string | null;
  type: EventName;
  status: keyof typeof DELIVERY_STATUS_WORDS;
  createdAt: string;
  attempts: Attempt[];
}
interface Attempt {
  at: string;
  statusCode: number | null;
  error: keyof typeof ATTEMPT_ERROR_WORDS | null;
}

export const EVENT_WORDS: Record<EventName, string> = {
  "batch.completed": "A batch finished",
  "item.completed": "Items finished",
  "webhook.test": "A test event (Send test)",
  "budget.threshold": "The monthly budget reached an alert percent",
};

const ATTEMPT_ERROR_WORDS = {
  timeout: "no answer in time",
  refused: "could not connect",
  redirect: "answered with a redirect (never followed)",
  destination_refused: "not sent: the address now leads to a private network",
  destination_unresolved: "not sent: the address's name could not be looked up",
} as const;

export const DELIVERY_STATUS_WORDS = {
  pending: "Waiting to be tried (again)",
  succeeded: "Delivered",
  failed: "Gave up",
} as const;

/** "Enabled", or "Disabled: <why>" (the API's reason when it disabled the endpoint itself). */
export const endpointState = (endpoint: Pick<Endpoint, "status" | "disabledReason">): string =>
  endpoint.status === "enabled"
    ? "Enabled"
    : endpoint.disabledReason
      ? `Disabled: ${endpoint.disabledReason}`
      : "Disabled";

/** One attempt: "answered 204" (2xx accepted), "answered 500", or why there was no usable answer. */
export function attemptWords(attempt: Pick<Attempt, "statusCode" | "error">): string {
  if (attempt.error) return ATTEMPT_ERROR_WORDS[attempt.error] ?? attempt.error;
  return attempt.statusCode === null ? "no answer" : `answered ${attempt.statusCode}`;
}

/** The attempts of one delivery, newest last: "2 attempts, last answered 500"; "not tried yet" for none. */
export function attemptsLine(attempts: readonly Pick<Attempt, "statusCode" | "error">[]): string {
  const last = attempts.at(-1);
  if (!last) return "not tried yet";
  return attempts.length === 1
    ? `1 attempt, ${attemptWords(last)}`
    : `${attempts.length} attempts, last ${attemptWords(last)}`;
}
