import * as z from "zod";

// The ledger: one line per charge or refund of one kind of contact of one item. Pure: the batch writes
// lines into its outbox with the usage they sum to (credits.ts prices both, `chargeParts`), and the
// account keeps them (budget-store.ts). A line names a source and an item's index, never a value.

export const LEDGER_KINDS = ["charge", "refund"] as const;
export const LEDGER_CONTACTS = ["email", "phone"] as const;

/** One line as the batch's outbox carries it: its batch is the outbox's. */
export const ledgerLineSchema = z.object({
  at: z.string(),
  kind: z.enum(LEDGER_KINDS),
  index: z.number().int().min(0),
  contact: z.enum(LEDGER_CONTACTS),
  source: z.string(),
  credits: z.number().int().min(1),
});
export type LedgerLine = z.infer<typeof ledgerLineSchema>;

export const ledgerEntrySchema = z
  .object({
    at: z.string().meta(OPENAPI_METADATA ? { description: "When it was charged or refunded (ISO 8601, UTC)." } : {}),
    kind: z.enum(LEDGER_KINDS),
    batchId: z.string(),
    index: z
      .number()
      .int()
      .min(0)
      .meta(OPENAPI_METADATA ? { description: "The item's index in its batch." } : {}),
    contact: z
      .enum(LEDGER_CONTACTS)
      .meta(
        OPENAPI_METADATA ? { description: "What was paid for: an email (with its verifications) or a phone." } : {},
      ),
    source: z.string().meta(OPENAPI_METADATA ? { description: "The data source that found the contact." } : {}),
    credits: z
      .number()
      .int()
      .min(1)
      .meta(OPENAPI_METADATA ? { description: "Credits charged, or given back by a refund (always positive)." } : {}),
  })
  .meta({ id: "LedgerEntry" });
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** The CSV's columns, in order: the JSON entry's fields. */
export const LEDGER_COLUMNS = ["at", "kind", "batchId", "index", "contact", "source", "credits"] as const;
