import * as z from "zod";
import type { BatchReport, OutboxEntry } from "../../account/report";
import { accountStub } from "../../account/stub";
import { isEmptyUsage, type UsageCounters, usageDeltaSchema } from "../../account/usage";
import { utcDay } from "../../account/usage-query";
import { jurisdictionOfBatch } from "../../base/batch-id";
import { logError } from "../../base/log";
import { summaryOf } from "../../contact-info/batch-views";
import { type LedgerLine, ledgerLineSchema } from "../../credits/ledger";
import { noteIndexed, peopleToIndex } from "../../privacy/storage/person-index-chunks";
import type { BatchRow } from "../batch-row";
import { handOverAlerts } from "../events/budget-alerts";
import { retryStepLater, stepSucceeded } from "../step-retry";

// The batch's outbox (docs/storage.md): usage deltas written in the same transaction
// as the items they count, numbered by batch.outbox_seq, and reported to the
// customer's account by the alarm, which forgets what the account acknowledged.

// Rows one report carries at most; the alarm reports again while rows are left.
const MAX_ENTRIES_PER_REPORT = 500;

/** Appends a delta for items that finished at `finishedAt`. A registration (the batch itself, or its deletion) may be empty. */
export function appendOutbox(
  sql: SqlStorage,
  finishedAt: string,
  usage: UsageCounters,
  { register = false, ledger = [] }: { register?: boolean; ledger?: readonly LedgerLine[] } = {},
): void {
  if (!register && isEmptyUsage(usage)) return;
  const { outbox_seq: seq } = sql
    .exec<{ outbox_seq: number }>("UPDATE batch SET outbox_seq = outbox_seq + 1 RETURNING outbox_seq")
    .one();
  sql.exec(
    "INSERT INTO outbox (seq, day, usage, ledger) VALUES (?, ?, ?, ?)",
    seq,
    utcDay(finishedAt),
    JSON.stringify(usage),
    ledger.length > 0 ? JSON.stringify(ledger) : null,
  );
}

/** Sends the outbox, the batch's counters and the next chunk of its people to index to its account; forgets the rows it applied. */
export async function reportToAccount(env: Env, sql: SqlStorage, row: BatchRow): Promise<void> {
  const entries = sql
    .exec<{ seq: number; day: string; usage: string; ledger: string | null }>(
      "SELECT seq, day, usage, ledger FROM outbox ORDER BY seq LIMIT ?",
      MAX_ENTRIES_PER_REPORT,
    )
    .toArray()
    .map(
      (entry): OutboxEntry => ({
        seq: entry.seq,
        day: entry.day,
        usage: usageDeltaSchema.parse(JSON.parse(entry.usage)),
        ledger: entry.ledger === null ? [] : z.array(ledgerLineSchema).parse(JSON.parse(entry.ledger)),
      }),
    );
  // The account derives the status from the counters itself.
  const { status: _, ...counters } = summaryOf(row);
  const people = await peopleToIndex(env, sql, row);
  const report: BatchReport = {
    batch: {
      ...counters,
      deletedAt: row.deleted_at,
      expiredAt: row.expired_at,
      peopleComplete: people === null || people.through >= row.total_items,
    },
    entries,
  };
  if (people) report.people = people.entries;
  const tenant = {
    customerId: row.customer_id,
    environment: row.environment,
    jurisdiction: jurisdictionOfBatch(row.id),
  };
  const account = accountStub(env, tenant);
  const { reportedSeq, alerts } = await account.report(report);
  sql.exec("DELETE FROM outbox WHERE seq <= ?", reportedSeq);
  if (people) noteIndexed(sql, people.through);
  // A hand-over that fails fails the step: its retry reports again, and the account answers them again.
  if (alerts.length > 0) await handOverAlerts(env, tenant, alerts, account);
}

/** The alarm's report step: false when the account could not be reached, and the alarm was armed to try again. */
export async function reportStep(env: Env, storage: DurableObjectStorage, row: BatchRow): Promise<boolean> {
  try {
    await reportToAccount(env, storage.sql, row);
    stepSucceeded(storage, "report");
    return true;
  } catch (error) {
    logError("account_report_failed", error, { batchId: row.id });
    await retryStepLater(storage, "report");
    return false;
  }
}
