import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import { effectiveSettings } from "../../src/rate-limit/endpoint-types";
import { limiterStub } from "../../src/rate-limit/stub";
import { createKey, request } from "../helpers";

const STORED_HITS = 100_000;
// A decision reads the newest hit and at most one page of the oldest still in the window
// (LIVE_HITS_KEPT, 64) by index: a few rows whatever is stored. The old limiter read every hit.
const MAX_ROWS_READ = 200;

/** What `run` makes SQLite do, from the rows its statements read (the cursors' rowsRead). */
function sqlWork<T>(sql: SqlStorage, run: () => T): { result: T; statements: number; rowsRead: number } {
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
  const prototype = Object.getPrototypeOf(sql) as SqlStorage;
  const exec = prototype.exec;
  const spy = vi.spyOn(prototype, "exec").mockImplementation(function (
    this: SqlStorage,
    ...args: Parameters<SqlStorage["exec"]>
  ) {
    const cursor = exec.apply(this, args);
    cursors.push(cursor);
    return cursor;
  });
  try {
    const result = run();
    return { result, statements: cursors.length, rowsRead: cursors.reduce((sum, cursor) => sum + cursor.rowsRead, 0) };
  } finally {
    spy.mockRestore();
  }
}

describe("a limiter with a large limit", () => {
  it(`decides after eviction with ${STORED_HITS} stored hits reading at most ${MAX_ROWS_READ} rows, not the hits`, {
    timeout: 180_000,
  }, async () => {
    const large = { contact_info_status: { limit: 1_000_000, windowSeconds: 86_400 } };
    const { key, record } = await createKey({ rateLimits: large });
    const stub = limiterStub(env, record);
    const limits = effectiveSettings(readConfig(env), large);
    const seeded = await runInDurableObject(stub, (limiter) => {
      let allowed = 0;
      for (let i = 0; i < STORED_HITS; i++)
        if (limiter.consume("contact_info_status", limits).decision.allowed) allowed++;
      return allowed;
    });
    expect(seeded).toBe(STORED_HITS);

    await evictDurableObject(stub);
    const work = await runInDurableObject(stub, (limiter, state) =>
      sqlWork(state.storage.sql, () => limiter.consume("contact_info_status", limits).decision),
    );
    expect(work.result).toMatchObject({ allowed: true, used: STORED_HITS + 1 });
    expect(work.statements).toBeGreaterThan(0);
    expect(work.rowsRead).toBeLessThanOrEqual(MAX_ROWS_READ);

    // Through the API too: counted, and reported with every stored hit.
    expect((await request(`/v2/test/person/contact-info/${crypto.randomUUID()}`, { key })).status).toBe(404);
    const report = await (await request("/v2/test/me/rate-limits", { key })).json<
      { endpointType: string; used: number }[]
    >();
    expect(report.find((entry) => entry.endpointType === "contact_info_status")?.used).toBe(STORED_HITS + 2);
  });
});
