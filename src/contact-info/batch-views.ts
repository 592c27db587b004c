// The batch as the API shows it: response shapes as zod schemas, the one source
// of both the TypeScript types and the OpenAPI document.
import * as z from "zod";
import { batchIdSchema } from "../base/batch-id";
import { once } from "../base/once";
import { emailSchema, itemErrorSchema, phoneSchema } from "./contact";

const BATCH_STATUSES = ["pending", "processing", "completed"] as const;
export const ITEM_STATUSES = ["pending", "completed", "failed"] as const;
/** A completed item's outcome; finding nothing is not a failure. */
export const ITEM_OUTCOMES = ["found", "not_found"] as const;
/** Why a completed item is `not_found` although a source found something: every email it found failed verification. */
const ITEM_REASONS = ["rejected_by_verification"] as const;
export type ItemReason = (typeof ITEM_REASONS)[number];
export const WEBHOOK_STATES = ["pending", "queued", "delivered", "failed"] as const;
/** What one data source said about an item; see sourceReportSchema. */
export const SOURCE_OUTCOMES = ["found", "not_found", "unavailable", "skipped"] as const;
/** Why a source was `skipped` when the reason is not the usual one (satisfied earlier, not configured). */
const SOURCE_REASONS = ["vendor_budget_exhausted"] as const;

export type BatchStatus = (typeof BATCH_STATUSES)[number];
export type ItemStatus = (typeof ITEM_STATUSES)[number];
/** Delivery of batch.completed: pending → queued → delivered | failed. */
export type WebhookState = (typeof WEBHOOK_STATES)[number];

/** pending: no item has finished; processing: some have; completed: every item has. */
export function batchStatus(totalItems: number, completedItems: number, failedItems: number): BatchStatus {
  const finished = completedItems + failedItems;
  if (finished >= totalItems) return "completed";
  return finished === 0 ? "pending" : "processing";
}

export const sourceReportSchema = z
  .object({
    name: z.string().meta(
      OPENAPI_METADATA
        ? {
            description:
              "The data source: sandbox, directory, pattern, hunter, pdl, apollo, prospeo; or the verifier: sandbox, zerobounce, neverbounce.",
            example: "directory",
          }
        : {},
    ),
    outcome: z.enum(SOURCE_OUTCOMES).meta(
      OPENAPI_METADATA
        ? {
            description:
              "found; not_found: it answered that it knows nothing; unavailable: it could not answer (timed out, 5xx, rate-limited or refused at the last attempt); skipped: not asked, because earlier sources had satisfied the fields, it is not configured, or its vendor had reached its daily ceiling (reason vendor_budget_exhausted). For a verifier: found: it judged the item's addresses (now, or in a cached verdict); unavailable: it could not judge one (that address is `unknown` unless a later verifier told); skipped: not asked.",
          }
        : {},
    ),
    kind: z
      .literal("verifier")
      .optional()
      .meta(
        OPENAPI_METADATA
          ? {
              description:
                "verifier: an email verifier, asked after the data sources about every email the item would return (ENRICHMENT_VERIFIERS); absent for a data source.",
            }
          : {},
      ),
    reason: z
      .enum(SOURCE_REASONS)
      .optional()
      .meta(
        OPENAPI_METADATA
          ? {
              description:
                "Only with outcome skipped. vendor_budget_exhausted: the vendor had reached the operator's ceiling of calls for the UTC day (VENDOR_DAILY_CALLS), so it was not asked, the next one was, and nothing was charged for it; asked again from the next UTC day. Absent for the usual skips.",
            }
          : {},
      ),
  })
  .meta({ id: "SourceReport" });
export type SourceReport = z.infer<typeof sourceReportSchema>;

export const itemViewSchema = once(() =>
  z
    .object({
      index: z.number().int().min(0).meta({ description: "Position in the submitted items, from 0." }),
      externalId: z.string().nullable().meta({ description: "The caller's own id for the item, echoed back." }),
      status: z
        .enum(ITEM_STATUSES)
        .meta({ description: "pending until processed; then completed (see outcome) or failed (see error)." }),
      outcome: z.enum(ITEM_OUTCOMES).nullable().meta({
        description:
          "Set when completed. found: a requested contact is returned; not_found: none is (finding nothing is not a failure): every source said it knows nothing, or (see reason) the only emails found failed verification.",
      }),
      reason: z.enum(ITEM_REASONS).optional().meta({
        description:
          "Present on a not_found item whose sources did find emails, every one of which a verifier judged invalid (so none is returned and the item is not charged): rejected_by_verification. Absent otherwise.",
      }),
      input: z.record(z.string(), z.string()).meta({ description: "The submitted fields." }),
      emails: z.array(emailSchema),
      phones: z.array(phoneSchema),
      error: itemErrorSchema.nullable(),
      fromCache: z.boolean().meta({ description: "The result came from the result cache (live only)." }),
      credits: z.number().int().min(0).meta({
        description:
          "What this item was charged: the price of each kind of contact it delivered (an email, a phone). 0 while pending, and for misses, failures (budget_exhausted included), cached results (fromCache) and duplicates of an earlier item of the batch.",
        example: 1,
      }),
      sources: z.array(sourceReportSchema).meta({
        description:
          "The data sources asked for this item, in order, at its last attempt (for a cached result: when it was found). Empty for items never enriched (invalid, timed out, lost).",
      }),
      erasedAt: z.iso.datetime().optional().meta({
        description:
          "Present when the person was erased (POST …/privacy/erasures): input, externalId, emails and phones are then empty; status, outcome, credits and the batch's counters stay as they were (an item still pending then ends failed with error erased).",
      }),
    })
    .meta({ id: "Item" }),
);

// The page's schema (the Worker sends pages pre-rendered): the document's, and get_contact_info_batch's
// output schema; made on first use (src/base/once.ts).
const webhookViewSchema = once(() =>
  z
    .object({
      url: z.string().meta({ description: "Where batch.completed is POSTed." }),
      state: z.enum(WEBHOOK_STATES).meta({
        description:
          "pending: the batch is not complete yet; queued: being delivered (retried with backoff); delivered: a 2xx answer; failed: every attempt failed.",
      }),
      attempts: z.number().int().min(0).meta({ description: "Delivery attempts so far." }),
      lastStatus: z
        .number()
        .int()
        .nullable()
        .meta({ description: "HTTP status of the last attempt; null before one, or on a timeout." }),
      refused: z.string().nullable().meta({
        description: "Why the last attempt was not sent: its name resolved inside (live). Else null.",
      }),
    })
    .meta({ id: "WebhookDelivery" }),
);

export const batchSummarySchema = once(() =>
  z.object({
    id: batchIdSchema,
    status: z
      .enum(BATCH_STATUSES)
      .meta({ description: "completed exactly when completedItems + failedItems == totalItems." }),
    totalItems: z.number().int().meta({ description: "Items submitted, invalid ones included." }),
    completedItems: z.number().int().meta({ description: "Items processed: found or not_found." }),
    failedItems: z.number().int().meta({
      description: "Items failed: invalid at submission, or failed while processing (see each item's error).",
    }),
    createdAt: z.iso.datetime().meta({ description: "When the batch was accepted." }),
    completedAt: z.iso.datetime().nullable().meta({ description: "When its last item finished; null until then." }),
    creditsCharged: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Credits charged so far: the sum of the items' credits; never more than maxCredits." }),
    creditsRefunded: z.number().int().min(0).meta({
      description:
        "Credits refunded for contacts reported wrong (POST …/feedback), within the refund window; creditsCharged stays what was charged.",
    }),
    maxCredits: z.number().int().min(0).nullable().meta({
      description:
        "The cap given at submission; null when none was given. Items past it end failed with budget_exhausted.",
    }),
  }),
);

export const batchPageSchema = once(() =>
  batchSummarySchema()
    .extend({
      webhook: webhookViewSchema().nullable(),
      items: z.array(itemViewSchema()),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id: "BatchStatus" }),
);

export type BatchSummary = z.infer<ReturnType<typeof batchSummarySchema>>;

/** The summary columns, as both the batch's own row and the account's batch list store them. */
export type SummaryColumns = {
  id: string;
  total_items: number;
  completed_items: number;
  failed_items: number;
  created_at: string;
  completed_at: string | null;
  credits_charged: number;
  credits_refunded: number;
  max_credits: number | null;
};

export function summaryOf(row: SummaryColumns): BatchSummary {
  return {
    id: row.id,
    status: batchStatus(row.total_items, row.completed_items, row.failed_items),
    totalItems: row.total_items,
    completedItems: row.completed_items,
    failedItems: row.failed_items,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    creditsCharged: row.credits_charged,
    creditsRefunded: row.credits_refunded,
    maxCredits: row.max_credits,
  };
}
export type WebhookView = z.infer<ReturnType<typeof webhookViewSchema>>;
/** The status response body. */
export type BatchPage = z.infer<ReturnType<typeof batchPageSchema>>;

/** A BatchPage as the batch object returns it: the items already rendered as a JSON array of itemViewSchema items. */
export type BatchPageData = Omit<BatchPage, "items"> & { itemsJson: string };

/** The response body of a status read: BatchPage, built around the pre-rendered items. */
export function batchPageJson({ itemsJson, nextCursor, ...rest }: BatchPageData): string {
  return `${JSON.stringify(rest).slice(0, -1)},"items":${itemsJson},"nextCursor":${JSON.stringify(nextCursor)}}`;
}
