import type { BatchSummary } from "../contact-info/batch-views";
import type { ChargeEntry } from "../credits/budget-charges";
import type { LedgerLine } from "../credits/ledger";
import type { PersonIndexEntry } from "../privacy/storage/account-privacy";
import type { UsageDelta } from "./usage";

// What a batch object tells its account (docs/storage.md, "outbox").

/** One outbox row: what items finished on `day` added to usage, numbered per batch, and its ledger lines. */
export interface OutboxEntry {
  seq: number;
  day: string;
  usage: UsageDelta;
  /** One line per charge or refund the usage counts (credits/ledger.ts): their credits sum to its. */
  ledger?: LedgerLine[];
}

/** What an outbox row brings to the budget and the ledger (credits/budget-store.ts). */
export const chargeEntry = ({ day, usage, ledger = [] }: OutboxEntry): ChargeEntry => ({
  day,
  credits: usage.credits,
  creditsRefunded: usage.creditsRefunded,
  ledger,
});

export interface BatchReport {
  /**
   * The batch as it is now (its counters only grow), when it was deleted or retention emptied it, and
   * whether all its items are in the person index with this report.
   */
  batch: Omit<BatchSummary, "status"> & {
    deletedAt: string | null;
    expiredAt: string | null;
    peopleComplete: boolean;
  };
  /** The batch's outbox rows not yet acknowledged, in seq order; the account applies each seq once. */
  entries: OutboxEntry[];
  /** The next of the batch's items for the person index (privacy/storage/account-privacy.ts), hashed; absent once all were sent. */
  people?: PersonIndexEntry[];
}
