import { crossedPercents, utcMonth } from "./budget";
import { readSettings, usedThisMonth } from "./budget-store";
import type { LedgerLine } from "./ledger";

// What a batch's reports bring to the budget (credits/budget-store.ts has the tables): its charges to its
// reservation and its key's month, its ledger lines, and the alert percents they make the month reach.

/** What one outbox row of a batch brings to the budget and the ledger (applied once, by the account). */
export interface ChargeEntry {
  day: string;
  credits: number;
  creditsRefunded: number;
  ledger: readonly LedgerLine[];
}

/**
 * Applies a batch's newly reported rows: its ledger lines, its reservation's charges and its key's month;
 * then settles the reservation once the batch completed (or was deleted: it records nothing after) and
 * every charge it made is applied. The row
 * stays, settled: it names the batch's key for refunds that come later.
 */
export function applyCharges(sql: SqlStorage, batchId: string, entries: readonly ChargeEntry[]): void {
  const keyId = sql
    .exec<{ key_id: string }>("SELECT key_id FROM reservations WHERE batch_id = ?", batchId)
    .toArray()[0]?.key_id;
  for (const { day, credits, creditsRefunded, ledger } of entries) {
    for (const line of ledger)
      sql.exec(
        "INSERT INTO ledger (at, day, kind, batch_id, idx, contact, source, credits) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        line.at,
        day,
        line.kind,
        batchId,
        line.index,
        line.contact,
        line.source,
        line.credits,
      );
    if (credits > 0) sql.exec("UPDATE reservations SET applied = applied + ? WHERE batch_id = ?", credits, batchId);
    if (keyId !== undefined && credits !== creditsRefunded)
      sql.exec(
        `INSERT INTO key_month_credits (month, key_id, credits) VALUES (?, ?, ?)
         ON CONFLICT (month, key_id) DO UPDATE SET credits = credits + excluded.credits`,
        day.slice(0, 7),
        keyId,
        credits - creditsRefunded,
      );
  }
  sql.exec(
    `UPDATE reservations SET settled = 1 WHERE batch_id = ?1 AND settled = 0 AND EXISTS (
       SELECT 1 FROM batches AS b WHERE b.id = ?1 AND (b.completed_at IS NOT NULL OR b.deleted_at IS NOT NULL) AND b.credits_charged <= reservations.applied)`,
    batchId,
  );
}

/** One budget.threshold event not yet handed to the webhook hub. */
export interface BudgetAlert {
  month: string;
  percent: number;
  usedThisMonth: number;
  monthlyCredits: number;
}

/** Notes the alert percents the month reached as its used credits went from `before` to now. */
export function noteAlerts(sql: SqlStorage, now: number, before: number): void {
  const { monthlyCredits, alertPercents } = readSettings(sql);
  const month = utcMonth(now);
  const after = usedThisMonth(sql, now);
  const sent = sql
    .exec<{ percent: number }>("SELECT percent FROM budget_alerts WHERE month = ?", month)
    .toArray()
    .map(({ percent }) => percent);
  for (const percent of crossedPercents(alertPercents, monthlyCredits, before, after, sent))
    sql.exec(
      "INSERT INTO budget_alerts (month, percent, used, monthly_credits) VALUES (?, ?, ?, ?)",
      month,
      percent,
      after,
      monthlyCredits,
    );
}

export const unsentAlerts = (sql: SqlStorage): BudgetAlert[] =>
  sql
    .exec<{ month: string; percent: number; used: number; monthly_credits: number }>(
      "SELECT month, percent, used, monthly_credits FROM budget_alerts WHERE sent_at IS NULL ORDER BY month, percent",
    )
    .toArray()
    .map((row) => ({
      month: row.month,
      percent: row.percent,
      usedThisMonth: row.used,
      monthlyCredits: row.monthly_credits,
    }));

export function markAlertSent(sql: SqlStorage, { month, percent }: BudgetAlert, now: number): void {
  sql.exec(
    "UPDATE budget_alerts SET sent_at = ? WHERE month = ? AND percent = ?",
    new Date(now).toISOString(),
    month,
    percent,
  );
}
