import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/base/config";
import { batchStub } from "../../src/batch/stub";
import type { ItemMessage } from "../../src/queue-messages/item-message";
import { governorStub } from "../../src/vendor-governor/stub";
import { callsMentioning, FAKE_KEYS } from "../fakes/upstreams";
import {
  createKey,
  deliver,
  envWith,
  faultyItemQueue,
  getStatus,
  sentMessage,
  setClockAhead,
  submitBatch,
  until,
} from "../helpers";

// The live pipeline with the governor on (the suite runs with it off, see vitest.config.ts), and
// Hunter as the only finder: a `-busy.example` person's first look-up gets 429 with Retry-After: 600
// (test/fakes/upstreams.ts), which pauses Hunter for every consumer.
const governed = envWith({ VENDOR_GOVERNOR: "on", ENRICHMENT_PROVIDERS: "hunter" });
const RETRY_AFTER_SECONDS = 600;
const { itemMaxAttempts } = readConfig(env);

// This test's own domains, so the count is of its calls only, whatever other files' batches do meanwhile.
const tag = `g${crypto.randomUUID().slice(0, 8)}`;
const hunterCalls = () => callsMentioning("hunter.test", tag);

const dueTimes = (batchId: string) =>
  runInDurableObject(batchStub(env, batchId), (_, state) =>
    state.storage.sql
      .exec<{ due_at: string }>("SELECT due_at FROM items")
      .toArray()
      .map(({ due_at }) => Date.parse(due_at)),
  );

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a vendor's 429 with Retry-After, in a live batch", () => {
  it("pauses that vendor for every consumer, holds its calls without spending attempts, and every item still completes", async () => {
    const { key } = await createKey({ environment: "live" });
    // The batches' messages are kept from the queue, to be delivered here with the governor on.
    const queue = faultyItemQueue(async () => {});
    const first = await submitBatch(
      key,
      { items: [{ fullName: "Paula Pause", companyDomain: `${tag}-busy.example` }], fields: ["email"] },
      "live",
    );
    const people = ["Ann One", "Bob Two", "Cy Three"].map((fullName) => ({
      fullName,
      companyDomain: `${tag}-governed.example`,
    }));
    const second = await submitBatch(key, { items: people, fields: ["email"] }, "live");
    const messages = await until(async () => queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)), {
      what: "both batches' messages",
      done: (sent) => [first, second].every((id) => sent.some((m) => m.batchId === id)),
    });
    const messageOf = (batchId: string) => messages.find((m) => m.batchId === batchId) as ItemMessage;

    // Hunter answers the first person 429, Retry-After: 600. That item retries after it, as ever.
    const called = await hunterCalls();
    const asked = Date.now();
    const paused = await deliver("contact-info-items", [messageOf(first)], 1, governed);
    expect(paused.retryMessages).toHaveLength(1);
    expect(await dueTimes(first)).toEqual([expect.any(Number)]);
    expect((await dueTimes(first))[0]).toBeGreaterThanOrEqual(asked + RETRY_AFTER_SECONDS * 1000);
    expect(await hunterCalls()).toBe(called + 1);

    // Another consumer's items, at their last attempt: Hunter is not called while paused, and the items
    // are neither failed nor retried at a cost: their message is sent again, its attempts kept, due after the pause.
    const resend = vi.spyOn(env.ITEM_QUEUE, "send").mockResolvedValue(undefined as never);
    const before = Date.now();
    const held = await deliver("contact-info-items", [messageOf(second)], itemMaxAttempts, governed);
    expect(await hunterCalls()).toBe(called + 1);
    expect(held.retryMessages).toEqual([]);
    expect(held.explicitAcks).toHaveLength(1);
    expect(resend).toHaveBeenCalledTimes(1);
    const [body, options] = resend.mock.calls[0]!;
    const again = JSON.parse(body as string) as ItemMessage;
    expect(again).toMatchObject({ batchId: second, attemptsBefore: itemMaxAttempts - 1 });
    expect(options?.delaySeconds).toBeGreaterThanOrEqual(RETRY_AFTER_SECONDS - 1);
    expect(await getStatus(key, second)).toMatchObject({ status: "pending", completedItems: 0, failedItems: 0 });
    // The batch knows when they are due, so its re-drive does not send them early.
    for (const due of await dueTimes(second))
      expect(due).toBeGreaterThanOrEqual(before + (RETRY_AFTER_SECONDS - 1) * 1000);

    // Once the pause is over, the messages come back and every item completes through Hunter.
    setClockAhead((RETRY_AFTER_SECONDS + 1) * 1000);
    await deliver("contact-info-items", [again], 1, governed);
    await deliver("contact-info-items", [messageOf(first)], 2, governed);
    vi.useRealTimers();
    expect(await hunterCalls()).toBe(called + 1 + people.length + 1);
    for (const batchId of [first, second]) {
      const status = await getStatus(key, batchId);
      expect(status).toMatchObject({ status: "completed", failedItems: 0 });
      for (const item of status.items) expect(item).toMatchObject({ outcome: "found", emails: [{ source: "hunter" }] });
    }
  });

  it("sends a message its governor held back again after the governor's wait, not after the failure backoff", async () => {
    // Hunter at 1 call in 40 s: of three people in one message, the first is called at once and the two
    // others cannot get a token within the call gate's wait (30 s), so they are held with the governor's 41 s
    // (40 s and its margin, in whole seconds).
    // The governor starts afresh (the test above left Hunter paused for 600 s of real time).
    const governor = await governorStub(env, "hunter", FAKE_KEYS.hunter);
    await runInDurableObject(governor, (_, state) => state.storage.kv.delete("paused_until"));
    await evictDurableObject(governor).catch(() => {});
    const slow = envWith({ VENDOR_GOVERNOR: "on", ENRICHMENT_PROVIDERS: "hunter", VENDOR_RATE_LIMITS: "hunter=1/40" });
    const { key } = await createKey({ environment: "live" });
    const queue = faultyItemQueue(async () => {});
    const people = ["Ann Slow", "Bob Slow", "Cy Slow"].map((fullName) => ({
      fullName,
      companyDomain: "governed.example",
    }));
    const batchId = await submitBatch(key, { items: people, fields: ["email"] }, "live");
    const [message] = await until(
      async () => queue.mock.calls.flatMap(([requests]) => [...requests].map(sentMessage)),
      {
        what: "the batch's message",
        done: (sent) => sent.some((m) => m.batchId === batchId),
      },
    );
    const resend = vi.spyOn(env.ITEM_QUEUE, "send").mockResolvedValue(undefined as never);
    const before = Date.now();
    const result = await deliver("contact-info-items", [message as ItemMessage], 1, slow);
    expect(result.retryMessages).toEqual([]);
    expect(resend).toHaveBeenCalledTimes(1);
    const [body, options] = resend.mock.calls[0]!;
    // The backoff's first wait would be 15–30 s (RETRY_BASE_DELAY_SECONDS 30, equal jitter).
    expect(options?.delaySeconds).toBeGreaterThanOrEqual(40);
    expect(options?.delaySeconds).toBeLessThanOrEqual(41);
    expect(await getStatus(key, batchId)).toMatchObject({ completedItems: 1, failedItems: 0 });
    const due = (await dueTimes(batchId)).filter((time) => time > before);
    expect(due).toHaveLength(2);
    for (const time of due) expect(time).toBeLessThanOrEqual(Date.now() + 41_000);

    // Each window of 40 s then admits one more: the held items complete, one a delivery.
    for (const ahead of [41_000, 82_000]) {
      setClockAhead(ahead);
      await deliver("contact-info-items", [JSON.parse(body as string) as ItemMessage], 1, slow);
    }
    vi.useRealTimers();
    expect(await getStatus(key, batchId)).toMatchObject({ status: "completed", completedItems: 3, failedItems: 0 });
  });
});
