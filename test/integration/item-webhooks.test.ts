import { createMessageBatch, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { abandonWebhooks, deliverWebhooks } from "../../src/queue/webhook-consumer";
import type { WebhookMessage } from "../../src/queue-messages/webhook-message";
import { generateWebhookSecret } from "../../src/webhooks/signature";
import { webhookSender } from "../../src/webhooks/webhook-sender";
import {
  createKey,
  expectProblem,
  faultyItemQueue,
  getStatus,
  newBatch,
  person,
  readPages,
  request,
  setClockAhead,
  submit,
  submitBatch,
  until,
  untilAtRest,
} from "../helpers";

type Delivery = { headers: Record<string, string>; body: string };
type ItemEvent = { type: "item.completed"; timestamp: string; data: { batchId: string; items: { index: number }[] } };
type AnyEvent = ItemEvent | { type: "batch.completed" };

// The receiver is the local-development one, on 127.0.0.1 (test/fakes/upstreams.ts answers for it).
const receiver = (kind: "ok" | "fail-once" | "always-500") => `http://127.0.0.1:9999/${kind}/${crypto.randomUUID()}`;
const deliveriesTo = async (url: string) =>
  (await fetch(`https://hooks.test/__deliveries${new URL(url).pathname}`)).json<Delivery[]>();
const statusLimits = { rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } };

/** Every delivery, verified by the reference implementation of Standard Webhooks (which throws on a bad signature). */
const verified = (secret: string, deliveries: Delivery[]) =>
  deliveries.map((delivery) => ({
    id: delivery.headers["webhook-id"]!,
    event: new Webhook(secret).verify(delivery.body, delivery.headers) as AnyEvent,
  }));

const itemEvents = (events: { id: string; event: AnyEvent }[]) =>
  events.filter((e): e is { id: string; event: ItemEvent } => e.event.type === "item.completed");

/** The deliveries to `url` once the item.completed ones, counted by distinct webhook-id, cover `total` items. */
function untilItemsDelivered(secret: string, url: string, total: number) {
  return until(() => deliveriesTo(url), {
    what: `item.completed deliveries of ${total} items to ${url}`,
    done: (deliveries) => {
      const byId = new Map(
        itemEvents(verified(secret, deliveries)).map(({ id, event }) => [id, event.data.items.length]),
      );
      return [...byId.values()].reduce((sum, items) => sum + items, 0) >= total;
    },
  });
}

const itemDeliveryRows = (batchId: string) =>
  runInDurableObject(batchStub(env, batchId), (_, state) =>
    state.storage.sql
      .exec<{ seq: number; state: string; attempts: number; last_status: number | null }>(
        "SELECT seq, state, attempts, last_status FROM item_deliveries ORDER BY seq",
      )
      .toArray(),
  );

const deliveryItems = (batchId: string) =>
  runInDurableObject(batchStub(env, batchId), (_, state) =>
    state.storage.sql
      .exec<{ items: string; enqueues: number }>("SELECT items, enqueues FROM item_deliveries ORDER BY seq")
      .toArray()
      .map(({ items, enqueues }) => ({ items: JSON.parse(items) as number[], enqueues })),
  );

describe("item.completed webhooks", () => {
  it("deliver every item exactly once, signed, as the status route shows it, at most 100 to a delivery", async () => {
    const { key, record } = await createKey(statusLimits);
    const url = receiver("ok");
    // 150 copies of one person finish in the record of their leader: more than one delivery holds.
    const copies = Array.from({ length: 150 }, () => person({ firstName: "Grace", lastName: "Hopper" }));
    const distinct = Array.from({ length: 12 }, (_, i) => person({ firstName: `Ada${"x".repeat(i)}` }));
    const items = [...distinct, { bad: 1 }, ...copies];
    const batchId = await submitBatch(key, {
      items,
      webhookUrl: url,
      webhookEvents: ["batch.completed", "item.completed"],
    });
    await untilItemsDelivered(record.webhookSecret!, url, items.length);
    await until(() => getStatus(key, batchId, "?limit=1"), {
      what: "batch.completed delivered",
      done: (status) => status.webhook?.state === "delivered",
    });

    const events = verified(record.webhookSecret!, await deliveriesTo(url));
    expect(events.filter(({ event }) => event.type === "batch.completed")).toHaveLength(1);
    const itemDeliveries = itemEvents(events);
    // The receiver answered 204 each time: one delivery per webhook-id.
    expect(new Set(itemDeliveries.map(({ id }) => id)).size).toBe(itemDeliveries.length);
    for (const { id, event } of itemDeliveries) {
      expect(id).toMatch(new RegExp(`^evt_${batchId.replaceAll("-", "")}_\\d+$`));
      expect(event.data.batchId).toBe(batchId);
      expect(event.data.items.length).toBeGreaterThan(0);
      expect(event.data.items.length).toBeLessThanOrEqual(100);
    }
    // The 150 copies finished together, so one delivery is full.
    expect(Math.max(...itemDeliveries.map(({ event }) => event.data.items.length))).toBe(100);
    const delivered = itemDeliveries.flatMap(({ event }) => event.data.items).sort((a, b) => a.index - b.index);
    expect(delivered.map(({ index }) => index)).toEqual(items.map((_, index) => index));
    const shown = (await readPages(key, batchId, { limit: 1000 })).flatMap((page) => page.items);
    expect(delivered).toEqual(shown);
    expect((await itemDeliveryRows(batchId)).every((row) => row.state === "delivered" && row.attempts === 1)).toBe(
      true,
    );
  });

  it("alone: no batch.completed is sent, and the status shows no batch.completed delivery", async () => {
    const { key, record } = await createKey(statusLimits);
    const url = receiver("ok");
    const batchId = await submitBatch(key, {
      items: [person(), person({ firstName: "Grace" })],
      webhookUrl: url,
      webhookEvents: ["item.completed"],
    });
    await untilItemsDelivered(record.webhookSecret!, url, 2);
    await until(() => itemDeliveryRows(batchId), {
      what: "every item delivery settled",
      done: (rows) => rows.every((row) => row.state === "delivered"),
    });
    expect((await getStatus(key, batchId, "?limit=1")).webhook).toBeNull();
    expect(
      verified(record.webhookSecret!, await deliveriesTo(url)).every(({ event }) => event.type === "item.completed"),
    ).toBe(true);
  });

  it("are retried after a 5xx from the receiver, with the same webhook-id and body, until delivered", async () => {
    const { key, record } = await createKey(statusLimits);
    const url = receiver("fail-once");
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: url, webhookEvents: ["item.completed"] });
    const deliveries = await until(() => deliveriesTo(url), { what: "the retry", done: (got) => got.length >= 2 });
    const [first, second] = verified(record.webhookSecret!, deliveries);
    expect(second!.id).toBe(first!.id);
    expect(second!.event).toEqual(first!.event);
    expect(deliveries[1]!.body).toBe(deliveries[0]!.body);
    const rows = await until(() => itemDeliveryRows(batchId), {
      what: "the delivery recorded",
      done: (got) => got[0]?.state === "delivered",
    });
    expect(rows).toEqual([{ seq: 1, state: "delivered", attempts: 2, last_status: 204 }]);
  });

  it("a hand-off that arrives twice makes no second delivery", async () => {
    const { key, record } = await createKey(statusLimits);
    const url = receiver("ok");
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: url, webhookEvents: ["item.completed"] });
    await untilItemsDelivered(record.webhookSecret!, url, 1);
    await until(() => itemDeliveryRows(batchId), {
      what: "the delivery recorded",
      done: (rows) => rows[0]?.state === "delivered",
    });

    const message = { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { batchId, delivery: 1 } };
    await deliverWebhooks(
      createMessageBatch<WebhookMessage>("contact-info-webhooks", [message, { ...message, attempts: 2 }]).messages,
      env,
    );
    const sender = webhookSender(env, batchId);
    await runDurableObjectAlarm(sender);
    await until(() => runInDurableObject(sender, (_, state) => [...state.storage.kv.list()].length), {
      what: "the sender finished",
      done: (left) => left === 0,
    });
    expect(await deliveriesTo(url)).toHaveLength(1);
  });

  it("are written once per record that finishes items: a repeated record (a redelivered message) writes none", async () => {
    const url = receiver("ok");
    const secret = generateWebhookSecret();
    const batch = {
      ...newBatch(`cus_${crypto.randomUUID()}`, 3),
      webhook: { url, secret, events: ["item.completed"] as const },
    };
    const stub = batchStub(env, batch.id);
    // Its item messages vanish: only the records below finish items.
    const itemQueue = faultyItemQueue(async () => {});
    await stub.create(batch);
    await untilAtRest(stub);
    itemQueue.mockRestore();
    const found = { status: "completed" as const, outcome: "not_found" as const, emails: [], phones: [], sources: [] };

    await stub.record([{ index: 0, ...found }]);
    await stub.record([{ index: 0, ...found }]);
    await stub.record([
      { index: 2, ...found },
      { index: 1, ...found },
      { index: 0, ...found },
    ]);
    expect((await deliveryItems(batch.id)).map(({ items }) => items)).toEqual([[0], [1, 2]]);
    const deliveries = await untilItemsDelivered(secret, url, 3);
    expect(new Set(deliveries.map((delivery) => delivery.headers["webhook-id"]))).toEqual(
      new Set([`evt_${batch.id.replaceAll("-", "")}_1`, `evt_${batch.id.replaceAll("-", "")}_2`]),
    );
  });

  it("are handed to the queue again when a hand-off was lost, once REDRIVE_AFTER_SECONDS passed without an attempt", async () => {
    const { key, record } = await createKey(statusLimits);
    const url = receiver("ok");
    // The queue takes the hand-off and loses it.
    const lost = vi
      .spyOn(env.WEBHOOK_QUEUE, "sendBatch")
      .mockResolvedValue({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } });
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: url, webhookEvents: ["item.completed"] });
    await until(() => itemDeliveryRows(batchId), {
      what: "the delivery queued",
      done: (rows) => rows[0]?.state === "queued",
    });
    lost.mockRestore();
    // Its other steps (publishing to the customer's endpoints) done: the alarm left is the re-drive's wait.
    await untilAtRest(batchStub(env, batchId));
    try {
      setClockAhead(61_000);
      expect(await runDurableObjectAlarm(batchStub(env, batchId))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    // The sender's alarm may have been armed on the clock moved ahead: run it rather than wait for it.
    const sender = webhookSender(env, batchId);
    await until(
      async () => {
        await runDurableObjectAlarm(sender);
        return deliveriesTo(url);
      },
      { what: "the re-driven delivery", done: (got) => got.length > 0 },
    );
    expect(verified(record.webhookSecret!, await deliveriesTo(url))).toHaveLength(1);
    await until(() => itemDeliveryRows(batchId), {
      what: "the delivery recorded",
      done: (rows) => rows[0]?.state === "delivered",
    });
    expect(await deliveryItems(batchId)).toEqual([{ items: [0], enqueues: 2 }]);
  });

  it("end failed when their hand-off is dead-lettered", async () => {
    const { key } = await createKey();
    const lost = vi
      .spyOn(env.WEBHOOK_QUEUE, "sendBatch")
      .mockResolvedValue({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } });
    const batchId = await submitBatch(key, {
      items: [person()],
      webhookUrl: receiver("ok"),
      webhookEvents: ["item.completed"],
    });
    await until(() => itemDeliveryRows(batchId), {
      what: "the delivery queued",
      done: (rows) => rows[0]?.state === "queued",
    });
    lost.mockRestore();
    const message = { id: crypto.randomUUID(), timestamp: new Date(), attempts: 6, body: { batchId, delivery: 1 } };
    await abandonWebhooks(createMessageBatch<WebhookMessage>("contact-info-webhooks-dlq", [message]).messages, env);
    expect(await itemDeliveryRows(batchId)).toEqual([{ seq: 1, state: "failed", attempts: 0, last_status: null }]);
  });

  it("stop when the batch is deleted: nothing is handed over or posted afterwards", async () => {
    const url = receiver("ok");
    const sendBatch = vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch").mockRejectedValue(new Error("queue down"));
    const { key } = await createKey();
    // Complete at birth (one invalid item): its delivery is written with the batch, and cannot be handed over.
    const batchId = await submitBatch(key, { items: [{ bad: 1 }], webhookUrl: url, webhookEvents: ["item.completed"] });
    await until(() => sendBatch.mock.calls.length, { what: "the hand-off tried", done: (calls) => calls > 0 });
    expect((await request(`/v2/test/person/contact-info/${batchId}`, { key, method: "DELETE" })).status).toBe(204);
    sendBatch.mockRestore();
    const handOff = vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch");

    await runDurableObjectAlarm(batchStub(env, batchId));
    expect(handOff).not.toHaveBeenCalled();
    // A hand-off already on its way finds nothing to send.
    const sender = webhookSender(env, batchId);
    await sender.start(batchId, 1);
    await runDurableObjectAlarm(sender);
    await until(() => runInDurableObject(sender, (_, state) => [...state.storage.kv.list()].length), {
      what: "the sender finished",
      done: (left) => left === 0,
    });
    expect(await deliveriesTo(url)).toEqual([]);
  });
});

describe("webhookEvents on submit", () => {
  it.each([
    [{ webhookEvents: ["item.completed"] }, "webhookEvents", "requires webhookUrl"],
    [{ webhookEvents: [], webhookUrl: receiver("ok") }, "webhookEvents", "at least one"],
    [
      { webhookEvents: ["item.finished"], webhookUrl: receiver("ok") },
      "webhookEvents.0",
      "batch.completed, item.completed",
    ],
    [{ webhookEvents: ["item.completed", "item.completed"], webhookUrl: receiver("ok") }, "webhookEvents", "twice"],
    [{ webhookEvents: "item.completed", webhookUrl: receiver("ok") }, "webhookEvents", "array"],
  ])("refuses %j with 400 invalid_request naming the field", async (envelope, path, reason) => {
    const { key } = await createKey();
    const problem = await expectProblem(await submit(key, { items: [person()], ...envelope }), 400, "invalid_request");
    expect(problem.errors).toEqual([{ path, message: expect.stringContaining(reason) }]);
  });

  it("validates the estimate's body the same way", async () => {
    const { key } = await createKey();
    const response = await request("/v2/test/person/contact-info/estimate", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items: [person()], webhookEvents: ["item.completed"] }),
    });
    await expectProblem(response, 400, "invalid_request");
  });
});
