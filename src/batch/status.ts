import type { ContactField, Email, ItemError, Outcome, Phone } from "../contact-info/contact";
import type { PersonInput } from "../contact-info/person";
import type { Environment } from "../environment";

export type BatchStatus = "pending" | "processing" | "completed";
export type ItemStatus = "pending" | "completed" | "failed";

/** pending: no item has finished; processing: some have; completed: every item has. */
export function batchStatus(totalItems: number, completedItems: number, failedItems: number): BatchStatus {
  const finished = completedItems + failedItems;
  if (finished >= totalItems) return "completed";
  return finished === 0 ? "pending" : "processing";
}

export interface BatchOwner {
  customerId: string;
  environment: Environment;
}

export interface BatchSummary {
  id: string;
  status: BatchStatus;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: string;
  completedAt: string | null;
}

/** What `create` answers: the batch, and whether this call made it or found it already made (a retry). */
export interface CreatedBatch extends BatchSummary {
  created: boolean;
}

export interface ItemView {
  index: number;
  externalId: string | null;
  status: ItemStatus;
  outcome: Outcome | null;
  input: PersonInput;
  emails: Email[];
  phones: Phone[];
  error: ItemError | null;
  /** The result came from the result cache rather than from the data sources. */
  fromCache: boolean;
}

export type WebhookState = "pending" | "queued" | "delivered" | "failed";

export interface WebhookView {
  url: string;
  state: WebhookState;
  attempts: number;
  /** HTTP status of the last attempt; null before the first, or when it got no answer. */
  lastStatus: number | null;
}

export interface BatchPage extends BatchSummary {
  webhook: WebhookView | null;
  items: ItemView[];
  nextCursor: string | null;
}

/** What the webhook consumer needs to send one batch.completed event. */
export interface WebhookEvent {
  id: string;
  url: string;
  secret: string;
  body: string;
}

/** A BatchPage as the batch object returns it: the items already rendered as a JSON array of ItemView. */
export type BatchPageData = Omit<BatchPage, "items"> & { itemsJson: string };

/** The response body of a status read: BatchPage, built around the pre-rendered items. */
export function batchPageJson({ itemsJson, nextCursor, ...rest }: BatchPageData): string {
  return `${JSON.stringify(rest).slice(0, -1)},"items":${itemsJson},"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/** What a status read finds: the page, a batch whose data retention deleted, or nothing of the caller's. */
export type StatusRead = { kind: "page"; page: BatchPageData } | { kind: "expired"; expiredAt: string } | { kind: "none" };

/** What the consumer reports for one item; recording it is idempotent. */
export type ItemOutcome =
  | { index: number; status: "completed"; outcome: Outcome; emails: Email[]; phones: Phone[]; fromCache?: boolean }
  | { index: number; status: "failed"; error: ItemError };

export interface NewBatch extends BatchOwner {
  id: string;
  keyId: string;
  fields: ContactField[];
  createdAt: string;
  items: NewItem[];
  statusUrl: string;
  webhook?: { url: string; secret: string };
}

export interface NewItem {
  input: PersonInput;
  externalId: string | null;
  error: ItemError | null;
  /** Items with the same key (the normalized person) are enriched once and share the result. */
  dedupeKey?: string;
}
