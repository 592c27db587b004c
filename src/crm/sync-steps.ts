// The steps a sync's alarm takes: reading the batch's items into records (a page at a time), then
// reading, deciding and writing the records in the CRM's batch size. Each step is safe to repeat: a
// record is saved done only with its result, and a write repeated finds its value there (same_value).
import * as z from "zod";
import { accountStub } from "../account/stub";
import { once } from "../base/once";
import { batchStub } from "../batch/stub";
import { normalizePerson, personInputSchema } from "../contact-info/person";
import { identifierKeys, personHasher } from "../contact-info/person-keys";
import type { CrmClient, CrmRecord } from "./crm";
import { CRMS } from "./crms";
import type { RecordReason } from "./schemas";
import {
  insertRecords,
  keyTaken,
  type NewRecord,
  pendingRecords,
  type RecordResult,
  type SyncRow,
  saveResult,
  skipPending,
  tenantOfRow,
} from "./storage/sync-store";
import { type Candidates, planApply, planRecord, planUndo, valuesToWrite } from "./sync-plan";

/** Batch items read per step. */
const ITEMS_PER_STEP = 1000;

// What a sync reads of a batch item (its documented view, batch-views.ts): validated, as any input.
const itemSchema = once(() =>
  z.object({
    index: z.number(),
    externalId: z.string().nullable(),
    input: z.record(z.string(), z.string()),
    emails: z.array(z.object({ address: z.string() })),
    phones: z.array(z.object({ number: z.string() })),
    error: z.object({ code: z.string() }).nullable(),
    erasedAt: z.string().optional(),
  }),
);
type Item = z.infer<ReturnType<typeof itemSchema>>;

/** The batch can no longer be read: deleted, past its retention, or (never seen) gone. */
export class BatchGoneError extends Error {
  constructor(readonly code: "batch_deleted" | "batch_expired" | "not_found") {
    super(`the batch cannot be read (${code})`);
  }
}

function candidatesOf(item: Item, row: SyncRow): Candidates {
  const found: Candidates = {};
  if (row.fields.email && item.emails[0]) found.email = item.emails[0].address;
  if (row.fields.phone && item.phones[0]) found.phone = item.phones[0].number;
  return found;
}

const matchKeyOf = (item: Item, row: SyncRow): string | null =>
  row.match === "externalId" ? item.externalId : (item.input.email?.trim().toLowerCase() ?? null) || null;

/** The identifier keys of each item's person, hashed as the do-not-enrich list holds them. */
async function suppressedIndexes(env: Env, row: SyncRow, items: readonly Item[]): Promise<Set<number>> {
  const tenant = tenantOfRow(row);
  const hasher = personHasher(env, tenant);
  const keyed = await Promise.all(
    items.map(async (item) => {
      const input = personInputSchema.safeParse(item.input);
      const people = [
        ...(input.success ? [normalizePerson(input.data)] : []),
        ...(item.emails[0] ? [normalizePerson({ email: item.emails[0].address })] : []),
      ];
      return { index: item.index, keys: await hasher.hash(people.flatMap(identifierKeys)) };
    }),
  );
  const all = [...new Set(keyed.flatMap((item) => item.keys))];
  if (all.length === 0) return new Set();
  const listed = new Set(await accountStub(env, tenant).privacyAmong("suppressions", all));
  return new Set(keyed.filter((item) => item.keys.some((key) => listed.has(key))).map((item) => item.index));
}

/** The page of the batch's items a step reads, each with whether its person may no longer be written for. */
async function readPage(env: Env, row: SyncRow) {
  const tenant = tenantOfRow(row);
  const read = await batchStub(env, row.batch_id).status(tenant, { fromIndex: row.next_item, limit: ITEMS_PER_STEP });
  if (read.kind !== "page")
    throw new BatchGoneError(
      read.kind === "none" ? "not_found" : read.kind === "deleted" ? "batch_deleted" : "batch_expired",
    );
  const items = z.array(itemSchema()).parse(JSON.parse(read.page.itemsJson));
  const suppressed = await suppressedIndexes(env, row, items);
  const refusedFor = (item: Item): RecordReason | null =>
    item.erasedAt ? "erased" : item.error?.code === "suppressed" || suppressed.has(item.index) ? "suppressed" : null;
  const last = items.at(-1);
  return { items, refusedFor, next: read.page.nextCursor === null || !last ? null : last.index + 1 };
}

/** One page of the batch's items made records; answers the next item index, or null after the last. */
export async function readItems(env: Env, sql: SqlStorage, row: SyncRow): Promise<number | null> {
  const { items, refusedFor, next } = await readPage(env, row);
  const records: NewRecord[] = [];
  const held = new Set<string>();
  for (const item of items) {
    const key = matchKeyOf(item, row);
    const candidates = candidatesOf(item, row);
    const refused = refusedFor(item);
    if (refused) records.push({ index: item.index, key, reason: refused });
    else if (key === null) records.push({ index: item.index, key, reason: "no_match_key" });
    else if (Object.keys(candidates).length === 0) records.push({ index: item.index, key, reason: "nothing_found" });
    else if (held.has(key) || keyTaken(sql, key, item.index))
      records.push({ index: item.index, key, reason: "duplicate_record" });
    else {
      held.add(key);
      records.push({ index: item.index, key, candidates });
    }
  }
  insertRecords(sql, records);
  return next;
}

/** Applying a dry run: a person erased or suppressed since the preview is left out (a page of items a step). */
export async function recheckItems(env: Env, sql: SqlStorage, row: SyncRow): Promise<number | null> {
  const { items, refusedFor, next } = await readPage(env, row);
  for (const item of items) {
    const refused = refusedFor(item);
    if (refused) skipPending(sql, item.index, refused);
  }
  return next;
}

/**
 * The next records (the CRM's batch size): read, decided (a preview by the rules; an apply against its
 * preview), and written unless this is a dry run not being applied. Answers how many were done (0: none left).
 */
export async function syncRecords(sql: SqlStorage, row: SyncRow, client: CrmClient): Promise<number> {
  const crm = CRMS[row.provider];
  const pending = pendingRecords(sql, crm.batchSize);
  if (pending.length === 0) return 0;
  // An undo knows the record ids its sync wrote to.
  const by = row.match === "externalId" || row.undo_of !== null ? "id" : "email";
  const keys = pending.flatMap((record) => (record.match_key === null ? [] : [record.match_key]));
  const found = await client.readRecords(keys, by);
  const emailProperty = crm.properties.email;
  const recordOf = (key: string | null): CrmRecord | undefined =>
    found.find((record) => (by === "id" ? record.id === key : record.values[emailProperty]?.toLowerCase() === key));
  const results: RecordResult[] = pending.map((record) => {
    const crmRecord = recordOf(record.match_key);
    const plan =
      row.undo_of !== null
        ? planUndo(crmRecord, record.changes)
        : row.applying
          ? planApply(crmRecord, record.changes)
          : planRecord(crmRecord, record.candidates, row.fields, crm.properties);
    return { index: record.idx, recordId: crmRecord?.id ?? null, ...plan };
  });
  const writing = row.applying || !row.dry_run;
  const updates = new Map<string, Record<string, string | null>>();
  for (const result of results) {
    const values = valuesToWrite(result.changes);
    if (writing && values && result.recordId !== null && !updates.has(result.recordId))
      updates.set(result.recordId, values);
  }
  if (updates.size > 0) {
    // From here the CRM may hold what this step writes: a failure no longer leaves the preview untouched.
    sql.exec(
      "UPDATE sync SET wrote = 1, applied_at = CASE WHEN applying = 1 THEN coalesce(applied_at, ?) ELSE applied_at END",
      new Date().toISOString(),
    );
    const answers = await client.updateRecords([...updates].map(([id, values]) => ({ id, values })));
    for (const result of results) {
      const error = result.recordId === null ? null : answers.get(result.recordId);
      if (error) Object.assign(result, { outcome: "failed", error });
    }
  }
  for (const result of results) saveResult(sql, result);
  return results.length;
}
