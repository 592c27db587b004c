import type { LedgerEntry } from "./ledger";

// The ledger's reads (its table and writes: budget-store.ts): entries of the UTC days from..to, in the
// order they were applied, paged by that order.

export interface LedgerPage {
  from: string;
  to: string;
  limit: number;
  /** The seq of the last entry of the previous page. */
  afterSeq: number | null;
}

export interface LedgerList {
  entries: LedgerEntry[];
  /** The seq of the last entry shown, when more follow. */
  lastSeq: number | null;
}

type LedgerRow = {
  seq: number;
  at: string;
  kind: LedgerEntry["kind"];
  batch_id: string;
  idx: number;
  contact: LedgerEntry["contact"];
  source: string;
  credits: number;
};

export function readLedger(sql: SqlStorage, { from, to, limit, afterSeq }: LedgerPage): LedgerList {
  const rows = sql
    .exec<LedgerRow>(
      `SELECT seq, at, kind, batch_id, idx, contact, source, credits FROM ledger
       WHERE day BETWEEN ? AND ? AND seq > ? ORDER BY seq LIMIT ?`,
      from,
      to,
      afterSeq ?? 0,
      limit + 1,
    )
    .toArray();
  const shown = rows.slice(0, limit);
  return {
    entries: shown.map((row) => ({
      at: row.at,
      kind: row.kind,
      batchId: row.batch_id,
      index: row.idx,
      contact: row.contact,
      source: row.source,
      credits: row.credits,
    })),
    lastSeq: rows.length > limit ? (shown.at(-1)?.seq ?? null) : null,
  };
}
