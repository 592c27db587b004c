import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BATCH_ROW } from "../../src/batch/batch-row";
import { DUE_ITEMS } from "../../src/batch/fan-out";
import { PENDING_AMONG } from "../../src/batch/item-store";
import { RECORD_FOLLOWERS, RECORD_ITEMS } from "../../src/batch/record/record-outcomes";
import { migrate } from "../../src/batch/schema";
import { batchStub } from "../../src/batch/stub";

/** SQLite's plan for `query`: one line per step. */
async function planOf(query: string, ...bindings: SqlStorageValue[]): Promise<string[]> {
  return runInDurableObject(batchStub(env, crypto.randomUUID()), (_, state) => {
    migrate(state.storage);
    return state.storage.sql
      .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...bindings)
      .toArray()
      .map((step) => step.detail);
  });
}

// The statements run for every recorded item and every read of the batch row: each must
// find its rows through an index, never walk the items (a batch holds up to 100,000).
describe("the batch's hot statements", () => {
  it("record items by their keys, and their followers through items_by_leader", async () => {
    const outcomes = JSON.stringify([[5, "completed", "found", "[]", "[]", null, null, 0, "[]"]]);
    const record = await planOf(RECORD_ITEMS, outcomes, "2026-01-01T00:00:00.000Z");
    expect(record.some((step) => /SEARCH items USING INTEGER PRIMARY KEY/.test(step))).toBe(true);
    expect(record.filter((step) => /SCAN items\b/.test(step))).toEqual([]);
    const followers = await planOf(RECORD_FOLLOWERS, "[5]");
    expect(followers.some((step) => /SEARCH items USING INDEX items_by_leader/.test(step))).toBe(true);
    expect(followers.filter((step) => /SCAN (items|l)\b/.test(step))).toEqual([]);
  });

  it("read the row with the oldest pending due time from items_by_due, and count the fan-out's items in flight by a range of items_by_status", async () => {
    const plan = await planOf(BATCH_ROW);
    expect(plan.some((step) => /SEARCH items USING INDEX items_by_due/.test(step))).toBe(true);
    expect(
      plan.some((step) => /SEARCH items USING (COVERING )?INDEX items_by_status \(status=\? AND idx<\?\)/.test(step)),
    ).toBe(true);
    expect(plan.filter((step) => /SCAN items|items_by_status \(status=\?\)$/.test(step))).toEqual([]);
  });

  it("find the re-drive's due items by a range of items_by_due (which holds only items with a due time)", async () => {
    const plan = await planOf(DUE_ITEMS, "2026-01-01T00:00:00.000Z", 10);
    expect(plan.some((step) => /SEARCH items USING INDEX items_by_due \(due_at/.test(step))).toBe(true);
    expect(plan.filter((step) => /SCAN items/.test(step))).toEqual([]);
  });

  it("find which of a group's items are still pending by index searches alone", async () => {
    const plan = await planOf(PENDING_AMONG, "[1,2,3]");
    expect(plan.filter((step) => /SCAN items|items_by_status \(status=\?\)$/.test(step))).toEqual([]);
  });
});
