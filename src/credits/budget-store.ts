import * as z from "zod";
import { inList } from "../base/sql-migrations";
import {
  type BudgetSettings,
  DEFAULT_ALERT_PERCENTS,
  decideReservation,
  type Limit,
  monthSpan,
  outstanding,
  type ReservationDecision,
  remainingOf,
  utcMonth,
} from "./budget";
import { LEDGER_CONTACTS, LEDGER_KINDS } from "./ledger";

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
    `SELECT r.cap, r.applied, (b.completed_at IS NOT NULL OR b.deleted_at IS NOT NULL) AS completed, b.credits_charged AS charged
     FROM reservations AS r LEFT JOIN batches AS b ON b.id = r.batch_id
     WHERE r.settled = 0 AND (b.id IS NOT NULL OR r.month = ?1) AND (?2 IS NULL OR r.key_id = ?2)`,
    utcMonth(now),
    keyId ?? null,
  );
  let reserved = 0;
  for (const row of rows)
    reserved += outstanding({
      cap: row.cap,
      applied: row.applied,
      completed: row.completed === 1,
      charged: row.charged ?? 0,
    });
  return reserved;
}

function keyUsed(sql: SqlStorage, now: number, keyId: string): number {
  const row = sql
    .exec<{ credits: number }>(
      "SELECT credits FROM key_month_credits WHERE month = ? AND key_id = ?",
      utcMonth(now),
      keyId,
    )
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
  key?: {
    keyId: string;
    monthlyCredits: number | null;
    usedThisMonth: number;
    reserved: number;
    remaining: number | null;
  };
}

function limits(sql: SqlStorage, now: number, key: KeyCap): { customer: Limit; key: Limit } {
  const { monthlyCredits } = readSettings(sql);
  return {
    customer: { monthlyCredits, used: usedThisMonth(sql, now), reserved: reservedNow(sql, now) },
    key: {
      monthlyCredits: key.monthlyCredits,
      used: keyUsed(sql, now, key.keyId),
      reserved: reservedNow(sql, now, key.keyId),
    },
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
