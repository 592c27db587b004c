import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import { batchStub } from "../../src/batch/stub";
import {
  createKey,
  expectProblem,
  getStatus,
  person,
  readPages,
  request,
  setClockAhead,
  submit,
  waitForCompletion,
} from "../helpers";
import { validItem } from "../keyed-hash";

const { maxBatchItems, maxBodyBytes } = readConfig(env);
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).byteLength;

/**
 * An item's name fields filled with `unit` (its first character `first`) until the
 * item's JSON takes `budget` bytes, no field over 500 characters.
 */
function filledItem(first: string, unit: string, budget: number): Record<string, string> {
  const item: Record<string, string> = { firstName: first, lastName: first, companyName: first };
  for (const field of ["companyName", "lastName", "firstName"]) {
    while (
      item[field]!.length + unit.length <= 500 &&
      bytes(JSON.stringify({ ...item, [field]: item[field] + unit })) + 1 <= budget
    ) {
      item[field] += unit;
    }
  }
  return item;
}

/** `maxBatchItems` copies of an item filling the body to within a few bytes of MAX_BODY_BYTES. */
function fullBody(first: string, unit: string): string {
  const envelope = bytes('{"items":[]}');
  const item = filledItem(first, unit, Math.floor((maxBodyBytes - envelope) / maxBatchItems));
  const body = JSON.stringify({ items: Array.from({ length: maxBatchItems }, () => item) });
  expect(bytes(body)).toBeLessThanOrEqual(maxBodyBytes);
  expect(bytes(body)).toBeGreaterThan(maxBodyBytes - maxBatchItems * 8);
  return body;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a submit within the documented limits, however its characters weigh in memory", () => {
  // V8 keeps a string with any character above U+00FF at 2 bytes a UTF-16 unit: these bodies pass
  // the 32 MiB a Durable Object call may carry once each item travels as input, person and key.
  it.each([
    ["2-byte (Cyrillic) characters", "Ж", "ж"],
    ["4-byte (emoji) characters", "🙂", "🙂"],
    ["mostly-ASCII fields that each hold a single wide character", "Ж", "a"],
  ])(
    "accepts MAX_BATCH_ITEMS items in MAX_BODY_BYTES of %s, every item stored",
    async (_, first, unit) => {
      const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
      const body = fullBody(first, unit);
      const response = await submit(key, body);
      expect(response.status).toBe(202);
      const { batchId, itemCount } = await response.json<{ batchId: string; itemCount: number }>();
      expect(itemCount).toBe(maxBatchItems);
      const expected = JSON.parse(body).items[0];
      const pages = await readPages(key, batchId, { limit: 1000 });
      const items = pages.flatMap((page) => page.items);
      expect(items.map((item) => item.index)).toEqual(Array.from({ length: maxBatchItems }, (_, i) => i));
      expect(items.every((item) => JSON.stringify(item.input) === JSON.stringify(expected))).toBe(true);
    },
    60_000,
  );

  it("accepts and completes 5,600 items of four 250-character fields that each begin with a Cyrillic letter (a 6 MB body)", async () => {
    const { key } = await createKey();
    const field = (tag: string, i: number) => `Ж${tag}${i}`.padEnd(250, "x");
    const items = Array.from({ length: 5_600 }, (_, i) => ({
      firstName: field("f", i),
      lastName: field("l", i),
      companyName: field("c", i),
      externalId: field("e", i),
    }));
    const response = await submit(key, { items });
    expect(response.status).toBe(202);
    const { batchId } = await response.json<{ batchId: string }>();
    const status = await waitForCompletion(key, batchId, 120_000);
    expect(status).toMatchObject({ status: "completed", totalItems: 5_600 });
    expect(status.completedItems + status.failedItems).toBe(5_600);
    expect(status.items[0]!.input).toEqual(items[0]);
  }, 150_000);
});

describe("a batch staged in chunks", () => {
  it("is invisible until its last chunk commits it, and its chunks are deleted if that never comes", async () => {
    const { key } = await createKey();
    const batchId = crypto.randomUUID();
    const stub = batchStub(env, batchId);
    await stub.stage({
      createdAt: new Date().toISOString(),
      firstIndex: 0,
      items: [validItem({ customerId: "cus_staged", environment: "test" }, person())],
      leaders: [null],
    });
    expect(await stub.exists()).toBe(false);
    await expectProblem(await request(`/v2/test/person/contact-info/${batchId}`, { key }), 404, "not_found");

    setClockAhead(11 * 60_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const tables = await runInDurableObject(stub, (_, state) =>
      state.storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
        )
        .toArray(),
    );
    expect(tables).toEqual([]);
  });
});

describe("an Idempotency-Key after a server error", () => {
  it("is free again when no batch was made, so a corrected request runs instead of 422 for 24 h", async () => {
    const { key } = await createKey();
    const real = env.BATCHES.get.bind(env.BATCHES);
    // The batch object fails every create: the submit answers 500 and makes nothing.
    vi.spyOn(env.BATCHES, "get").mockImplementation((id) => {
      const stub = real(id);
      return new Proxy(stub, {
        get: (target, name) =>
          name === "create"
            ? () => Promise.reject(new Error("the batch object failed"))
            : (...args: unknown[]) =>
                (target as unknown as Record<string, (...a: unknown[]) => unknown>)[name as string]!(...args),
      });
    });
    const headers = { "content-type": "application/json", "idempotency-key": "after-500" };
    const first = await request("/v2/test/person/contact-info", {
      method: "POST",
      key,
      headers,
      body: JSON.stringify({ items: [person()] }),
    });
    await expectProblem(first, 500, "internal_error");
    vi.mocked(env.BATCHES.get).mockRestore();

    const corrected = await request("/v2/test/person/contact-info", {
      method: "POST",
      key,
      headers,
      body: JSON.stringify({ items: [person({ firstName: "Grace" })] }),
    });
    expect(corrected.status).toBe(202);
    const { batchId } = await corrected.json<{ batchId: string }>();
    expect((await getStatus(key, batchId)).totalItems).toBe(1);
  });
});
