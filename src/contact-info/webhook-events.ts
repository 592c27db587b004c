// The events a submit's webhookUrl may subscribe to (webhookEvents). Without the
// field a batch gets batch.completed alone, as before the field existed.
export const WEBHOOK_EVENTS = ["batch.completed", "item.completed"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = ["batch.completed"];

/**
 * Items one item.completed delivery carries at most. A delivery carries the items one
 * record finished (about a consumer invocation's worth, with their duplicates), so a
 * 10,000-item batch makes at least 100 deliveries, each of a bounded size.
 */
export const MAX_ITEMS_PER_DELIVERY = 100;
