import * as z from "zod";
import { inList } from "../base/sql-migrations";
import {
  type BudgetSettings,
  crossedPercents,
  DEFAULT_ALERT_PERCENTS,
  decideReservation,
  type Limit,
  monthSpan,
  outstanding,
  type ReservationDecision,
  remainingOf,
  utcMonth,
} from "./budget";
import { LEDGER_CONTACTS, LEDGER_KINDS, type LedgerLine } from "./ledger";

// The budget's and the ledger's tables in the account object (docs/storage.md, "Account"): the one
// reader and writer of them. The account runs these in its own transactions; the decisions are budget.ts's.

export const BUDGET_TABLES = `
   CREATE TABLE budget (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     monthly_credits INTEGER CHECK (monthly_credits >= 0),
     alert_percents TEXT NOT NULL
   );
   CREATE TABLE reservations (
     batch_id TEXT PRIMARY KEY,
     key_id TEXT NOT NULL,
     cap INTEGER NOT NULL CHECK (cap >= 0),
     applied INTEGER NOT NULL DEFAULT 0,
     month TEXT NOT NULL,
     settled INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1))
   ) WITHOUT ROWID;
   CREATE INDEX reservations_open ON reservations (key_id) WHERE settled = 0;
   CREATE TABLE key_month_credits (
     month TEXT NOT NULL,
     key_id TEXT NOT NULL,
     credits INTEGER NOT NULL,
     PRIMARY KEY (month, key_id)
   ) WITHOUT ROWID;
   CREATE TABLE budget_alerts (
     month TEXT NOT NULL,
     percent INTEGER NOT NULL,
     used INTEGER NOT NULL,
     monthly_credits INTEGER NOT NULL,
     sent_at TEXT,
     PRIMARY KEY (month, percent)
   ) WITHOUT ROWID;
   CREATE TABLE ledger (
     seq INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     day TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN (${inList(LEDGER_KINDS)})),
     batch_id TEXT NOT NULL,
     idx INTEGER NOT NULL,
     contact TEXT NOT NULL CHECK (contact IN (${inList(LEDGER_CONTACTS)})),
     source TEXT NOT NULL,
     credits INTEGER NOT NULL CHECK (credits > 0)
   );
   CREATE INDEX ledger_by_day ON ledger (day, seq);`;

const percentsSchema = z.array(z.number().int());

export function readSettings(sql: SqlStorage): Required<BudgetSettings> {
  const row = sql
    .exec<{ monthly_credits: number | null; alert_percents: string }>(
      "SELECT monthly_credits, alert_percents FROM budget",
    )
    .toArray()[0];
  if (!row) return { monthlyCredits: null, alertPercents: [...DEFAULT_ALERT_PERCENTS] };
  const percents = percentsSchema.safeParse(JSON.parse(row.alert_percents));
  return {
    monthlyCredits: row.monthly_credits,
    alertPercents: percents.success ? percents.data : [...DEFAULT_ALERT_PERCENTS],
  };
}

export function saveSettings(sql: SqlStorage, { monthlyCredits, alertPercents }: BudgetSettings): void {
  sql.exec(
    `INSERT INTO budget (id, monthly_credits, alert_percents) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET monthly_credits = excluded.monthly_credits, alert_percents = excluded.alert_percents`,
    monthlyCredits,
    JSON.stringify([...(alertPercents ?? DEFAULT_ALERT_PERCENTS)].sort((a, b) => a - b)),
  );
}

/** Credits charged less refunded in the month of `now`, as the usage report counts them (its usage_days). */
export function usedThisMonth(sql: SqlStorage, now: number): number {
  const { from, to } = monthSpan(now);
  const { used } = sql
    .exec<{ used: number | null }>(
      "SELECT sum(credits) - sum(credits_refunded) AS used FROM usage_days WHERE day BETWEEN ? AND ?",
      from,
      to,
    )
    .one();
  return Math.max(0, used ?? 0);
}

/**
 * What open reservations hold (of one key's batches, when given). A reservation whose batch never
 * reported (the submit died between the two) holds only in the month it was made.
 */
function reservedNow(sql: SqlStorage, now: number, keyId?: string): number {
  const rows = sql.exec<{ cap: number; applied: number; completed: number | null; charged: number | null }>(
    `SELECT r.cap, r.applied, b.completed_at IS NOT NULL AS completed, b.credits_charged AS charged
     FROM reservations AS r LEFT JOIN batches AS b ON b.id = r.batch_id
     WHERE r.settled = 0 AND (b.id IS NOT NULL OR r.month = ?1) AND (?2 IS NULL OR r.key_id = ?2)`,
    utcMonth(now),
    keyId ?? null,
  );
  let reserved = 0;
  for (const row of rows)
    reserved += outstanding({ cap: row.cap, applied: row.applied, completed: row.completed === 1, charged: row.charged ?? 0 });
  return reserved;
}

function keyUsed(sql: SqlStorage, now: number, keyId: string): number {
  const row = sql
    .exec<{ credits: number }>("SELECT credits FROM key_month_credits WHERE month = ? AND key_id = ?", utcMonth(now), keyId)
    .toArray()[0];
  return Math.max(0, row?.credits ?? 0);
}

/** A key's cap as its record holds it, and the key. */
export interface KeyCap {
  keyId: string;
  monthlyCredits: number | null;
}

export interface BudgetState {
  monthlyCredits: number | null;
  usedThisMonth: number;
  reserved: number;
  remaining: number | null;
  resetsAt: string;
  alertPercents: number[];
  key?: { keyId: string; monthlyCredits: number | null; usedThisMonth: number; reserved: number; remaining: number | null };
}

function limits(sql: SqlStorage, now: number, key: KeyCap): { customer: Limit; key: Limit } {
  const { monthlyCredits } = readSettings(sql);
  return {
    customer: { monthlyCredits, used: usedThisMonth(sql, now), reserved: reservedNow(sql, now) },
    key: { monthlyCredits: key.monthlyCredits, used: keyUsed(sql, now, key.keyId), reserved: reservedNow(sql, now, key.keyId) },
  };
}

/** The budget as GET …/me/budget answers it, with the calling key's cap when it has one. */
export function readBudget(sql: SqlStorage, now: number, key: KeyCap): BudgetState {
  const { alertPercents } = readSettings(sql);
  const { customer, key: limit } = limits(sql, now, key);
  return {
    monthlyCredits: customer.monthlyCredits,
    usedThisMonth: customer.used,
    reserved: customer.reserved,
    remaining: remainingOf(customer),
    resetsAt: monthSpan(now).resetsAt,
    alertPercents,
    ...(key.monthlyCredits === null
      ? {}
      : {
          key: {
            keyId: key.keyId,
            monthlyCredits: key.monthlyCredits,
            usedThisMonth: limit.used,
            reserved: limit.reserved,
            remaining: remainingOf(limit),
          },
        }),
  };
}

/**
 * Reserves `cap` for the batch `batchId` when it fits what remains of the customer's budget and the
 * key's; a batch that reserved before, or reported already (an idempotent retry), keeps what it has.
 */
export function reserve(sql: SqlStorage, now: number, batchId: string, cap: number, key: KeyCap): ReservationDecision {
  const known =
    sql.exec("SELECT 1 FROM reservations WHERE batch_id = ?", batchId).toArray().length > 0 ||
    sql.exec("SELECT 1 FROM batches WHERE id = ?", batchId).toArray().length > 0;
  const { customer, key: limit } = limits(sql, now, key);
  if (known) return { ok: true, limited: customer.monthlyCredits !== null || limit.monthlyCredits !== null };
  const decision = decideReservation(cap, customer, limit);
  if (decision.ok)
    sql.exec(
      "INSERT INTO reservations (batch_id, key_id, cap, month) VALUES (?, ?, ?, ?)",
      batchId,
      key.keyId,
      cap,
      utcMonth(now),
    );
  return decision;
}

/** What one outbox row of a batch brings to the budget and the ledger (applied once, by the account). */
export interface ChargeEntry {
  day: string;
  credits: number;
  creditsRefunded: number;
  ledger: readonly LedgerLine[];
}

/**
 * Applies a batch's newly reported rows: its ledger lines, its reservation's charges and its key's month;
 * then settles the reservation once the batch completed and every charge it made is applied. The row
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
       SELECT 1 FROM batches AS b WHERE b.id = ?1 AND b.completed_at IS NOT NULL AND b.credits_charged <= reservations.applied)`,
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
    .map((row) => ({ month: row.month, percent: row.percent, usedThisMonth: row.used, monthlyCredits: row.monthly_credits }));

export function markAlertSent(sql: SqlStorage, { month, percent }: BudgetAlert, now: number): void {
  sql.exec(
    "UPDATE budget_alerts SET sent_at = ? WHERE month = ? AND percent = ?",
    new Date(now).toISOString(),
    month,
    percent,
  );
}
