// The events an endpoint (POST /v2/{environment}/webhook-endpoints) may subscribe to. An endpoint
// subscribed to an event nothing sends it would be a promise nobody keeps, so an event is named here
// only once the hub is sent it: batch.completed and item.completed by every batch's alarm
// (src/batch/events/), webhook.test by POST …/{id}/test, budget.threshold by the batch's alarm when its
// report took the month past an alert percent (src/batch/events/budget-alerts.ts).
export const ENDPOINT_EVENTS = ["batch.completed", "item.completed", "webhook.test", "budget.threshold"] as const;
export type EndpointEvent = (typeof ENDPOINT_EVENTS)[number];

export const ENDPOINT_STATUSES = ["enabled", "disabled"] as const;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Why an attempt had no usable answer: none within the timeout, none at all, a redirect (never
 * followed); or nothing was sent: the URL's name now resolves to a private address (never retried),
 * or the resolver could not say where it leads (retried).
 */
export const ATTEMPT_ERRORS = [
  "timeout",
  "refused",
  "redirect",
  "destination_refused",
  "destination_unresolved",
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

/** Endpoints one customer has in one environment, at most. */
export const MAX_ENDPOINTS = 20;
/** Deliveries one customer's log keeps in one environment, at most: past it the oldest finished ones go first. */
export const MAX_DELIVERIES_KEPT = 100_000;
/** Deliveries one recover re-sends at most (the oldest first); the answer's count says how many. */
export const MAX_RECOVER = 1000;
/** How long a rotated-out secret still signs beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;
/** Deliveries one page of the log shows at most. */
export const MAX_DELIVERY_PAGE = 100;
/** Attempts a delivery keeps at most (redelivered many times): the newest. */
export const MAX_ATTEMPTS_KEPT = 50;
