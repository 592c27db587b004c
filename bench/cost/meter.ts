// The meters of `npm run bench:cost`: what Cloudflare bills, counted around the real Worker and
// its Durable Objects in local workerd (bench/cost/worker.ts wraps them; src/ knows nothing of it).
// The Worker and every object of its classes run in one isolate locally, so one module-level
// tally sees them all. Counted:
// - Worker invocations: fetch, and queue per queue (each a billed request);
// - queue messages sent (and their bytes), delivered, retried, per queue;
// - Durable Object requests per class: every RPC call from outside the object (a method calling
//   another of its own methods is not a request), and alarms;
// - SQLite rows read and written per class, from each cursor's rowsRead and rowsWritten (what
//   Cloudflare bills), plus the synchronous KV API (a row each) and setAlarm (a row written);
//   rows of the account's person index and of the erasure's bookkeeping (the database high-water
//   mark, the cache purge list) apart, as the targets count them apart;
// - KV reads (per key: a bulk read of 100 keys is 100 reads), writes, deletes, lists;
// - each object's active time: the union of the times it had a request in flight (a lower bound:
//   work it goes on with after answering, as the batch's first sends after create, is not in it).

type Counter = Record<string, number>;

export interface ClassTally {
  requests: Counter;
  alarms: number;
  rowsRead: number;
  rowsWritten: number;
  /** Rows written by the account's person index and by the erasure's bookkeeping, apart. */
  rowsWrittenApart: Counter;
  activeMs: number;
  objects: number;
  /** Rows read and written per statement (its first 60 characters), for finding where they go. */
  statements: Record<string, { read: number; written: number; runs: number }>;
}

export interface Tally {
  fetch: number;
  queueInvocations: Counter;
  sent: Record<string, { messages: number; bytes: number; operations: number }>;
  delivered: Counter;
  retried: Counter;
  deliveredOperations: Counter;
  kv: { reads: number; writes: number; deletes: number; lists: number };
  classes: Record<string, ClassTally>;
}

const empty = (): Tally => ({
  fetch: 0,
  queueInvocations: {},
  sent: {},
  delivered: {},
  retried: {},
  deliveredOperations: {},
  kv: { reads: 0, writes: 0, deletes: 0, lists: 0 },
  classes: {},
});

let tally = empty();
/** The tally being counted (the wrappers of bindings.ts and objects.ts add to it). */
export const current = (): Tally => tally;
/** Cursors not yet summed: their counts grow as they are read, so they are summed when the tally is taken. */
export const cursors: {
  cls: string;
  query: string;
  apart: string | null;
  cursor: SqlStorageCursor<Record<string, SqlStorageValue>>;
}[] = [];
/** Each object with its class, how many requests it has in flight and since when. */
export const active = new Map<object, { cls: string; inFlight: number; since: number }>();

export const add = (counter: Counter, key: string, n = 1) => {
  counter[key] = (counter[key] ?? 0) + n;
};
export const classTally = (cls: string): ClassTally => {
  tally.classes[cls] ??= {
    requests: {},
    alarms: 0,
    rowsRead: 0,
    rowsWritten: 0,
    rowsWrittenApart: {},
    activeMs: 0,
    objects: 0,
    statements: {},
  };
  return tally.classes[cls];
};
// Queues bill an operation per 64 KB (1,000 bytes a KB) written, read or deleted, with about 100 bytes of metadata.
export const operations = (bytes: number) => Math.max(1, Math.ceil((bytes + 100) / 64_000));
export const bytesOf = (body: unknown) =>
  new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)).byteLength;

/** The tally since the last reset, cursors summed. */
export function takeTally(): Tally {
  for (const { cls, query, apart, cursor } of cursors) {
    const t = classTally(cls);
    t.rowsRead += cursor.rowsRead;
    t.rowsWritten += cursor.rowsWritten;
    const key = query.replace(/\s+/g, " ").trim().slice(0, 60);
    t.statements[key] ??= { read: 0, written: 0, runs: 0 };
    t.statements[key].read += cursor.rowsRead;
    t.statements[key].written += cursor.rowsWritten;
    t.statements[key].runs++;
    if (apart) add(t.rowsWrittenApart, apart, cursor.rowsWritten);
  }
  cursors.length = 0;
  const now = performance.now();
  for (const state of active.values())
    if (state.inFlight > 0) {
      classTally(state.cls).activeMs += now - state.since;
      state.since = now;
    }
  const taken = tally;
  tally = empty();
  for (const state of active.values()) if (state.inFlight > 0) classTally(state.cls);
  return taken;
}

export const countFetch = () => {
  tally.fetch++;
};
