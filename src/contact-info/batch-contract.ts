// What crosses the RPC boundary of the batch Durable Object: its arguments and answers.

import type { BatchOwner } from "../base/tenant";
import type { BatchPageData, BatchSummary, ItemReason, SourceReport } from "./batch-views";
import type { ContactField, Contacts, Email, ItemError, Outcome, Phone } from "./contact";
import type { NormalizedPerson, PersonInput } from "./person";
import type { PersonHashes } from "./person-keys";
import type { WebhookEventType } from "./webhook-events";

/**
 * A batch to create. Its items come in one call, or, for a batch too large for one
 * call (batch/rpc-chunks.ts), in staged chunks (`StagedItems`) and then the last chunk here.
 */
export interface NewBatch extends BatchOwner {
  id: string;
  keyId: string;
  fields: ContactField[];
  createdAt: string;
  /** The items from index `stagedItems` on: all of them, or the last chunk. */
  items: NewItem[];
  /** Per item, leaderIndexes over the whole batch: the index of the earlier item it duplicates, or null. */
  leaders: (number | null)[];
  /** Items stored before by `stage`, from index 0: 0 unless the batch came in chunks. */
  stagedItems: number;
  statusUrl: string;
  /** Where to send the batch's webhooks, signed with `secret`, and which events (DEFAULT_WEBHOOK_EVENTS when absent). */
  webhook?: { url: string; secret: string; events?: readonly WebhookEventType[] };
  /** The most the batch may charge, in credits; absent or null: no cap. */
  maxCredits?: number | null;
  /** How old a cached result its items may be served, in days (the submit's, or DEFAULT_MAX_AGE_DAYS). */
  maxAgeDays: number;
}

/** A chunk of a batch's items, stored ahead of `create` and seen by nobody until it commits the batch. */
export interface StagedItems {
  createdAt: string;
  firstIndex: number;
  items: NewItem[];
  leaders: (number | null)[];
}

/** An item of a new batch: a valid one normalized and hashed once, at submission; an invalid one as it came. */
export type NewItem = InvalidItem | ValidItem;

interface InvalidItem {
  input: PersonInput;
  externalId: string | null;
  /** Why it failed validation: it is stored `failed` and never processed. */
  error: ItemError;
}

interface ValidItem {
  input: PersonInput;
  externalId: string | null;
  error: null;
  /** The input normalized. */
  person: NormalizedPerson;
  /** personKey(person): items with the same key are enriched once and share the result. */
  personKey: string;
  /** personHashes(person, personKey). */
  hashes: PersonHashes;
}

/** What `create` answers: the batch, and whether this call made it or found it already made (a retry). */
export interface CreatedBatch extends BatchSummary {
  created: boolean;
}

/** What a status read finds: the page, a batch whose data retention or its owner deleted, or nothing of the caller's. */
export type StatusRead =
  | { kind: "page"; page: BatchPageData }
  | { kind: "expired"; expiredAt: string }
  | { kind: "deleted"; deletedAt: string }
  | { kind: "none" };

/**
 * What the consumer reports for one item; recording it is idempotent. `sources`:
 * the data sources asked, in order (empty for items failed without asking any).
 * `cacheKey`: a full answer's result-cache key (made by the consumer, which has the person's hash), under
 * which the batch keeps it if it records it.
 */
/** A data source asked at an item's last attempt: how long it took, whether it answered its rate limit (scorecards; never stored with the item). */
export interface SourceCall {
  name: string;
  ms: number;
  rateLimited?: true;
  /** It found something. */
  found?: true;
  /** The item's company domain, which the learned order keeps each source's record by. */
  domain?: string;
}

export type ItemOutcome =
  | {
      index: number;
      status: "completed";
      outcome: Outcome;
      /** Why a not_found item found nothing it returns, when a source did find something. */
      reason?: ItemReason;
      emails: Email[];
      phones: Phone[];
      fromCache?: boolean;
      cacheKey?: string;
      /** A cached result whose emails were verified again (too old to serve as it was): charged the verifications only. */
      reverified?: boolean;
      sources: SourceReport[];
      calls?: SourceCall[];
    }
  | { index: number; status: "failed"; error: ItemError; sources: SourceReport[]; calls?: SourceCall[] };

/**
 * What `record()` answers: the items it finished (followers included), and of the
 * items it was given, those no longer pending (finished before, or the batch deleted).
 */
export interface RecordAnswer {
  recorded: number;
  notPending: number[];
}

/**
 * An item whose message went back to the queue to wait: it is due again at `dueAt`
 * (ISO 8601). `found`: what the attempt found before a source asked for time, kept
 * so the item's end never discards it.
 */
export interface ItemDeferral {
  index: number;
  dueAt: string;
  found?: Contacts;
}
