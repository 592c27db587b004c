import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../src/batch/stub";
import {
  createKey,
  createStoredBatch,
  deliver,
  expectProblem,
  getStatus,
  person,
  request,
  submitBatch,
  waitForCompletion,
} from "../helpers";

const eventsPath = (batchId: string, query = "") => `/v2/test/person/contact-info/${batchId}/events${query}`;

interface Stream {
  response: Response;
  /** The next event, or null once the stream ended. */
  next(): Promise<EventSourceMessage | null>;
  /** Every event until the stream ends. */
  rest(): Promise<EventSourceMessage[]>;
  close(): Promise<void>;
}

/** Opens a batch's event stream, parsed with eventsource-parser (the client's parser). */
async function openEvents(
  key: string,
  batchId: string,
  { query = "?items=true", lastEventId }: { query?: string; lastEventId?: string } = {},
) {
  const response = await request(eventsPath(batchId, query), {
    key,
    headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const queued: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queued.push(event) });
  const stream: Stream = {
    response,
    async next() {
      while (queued.length === 0) {
        const { done, value } = await reader.read();
        if (done) return null;
        parser.feed(value);
      }
      return queued.shift()!;
    },
    async rest() {
      const events: EventSourceMessage[] = [];
      for (let event = await stream.next(); event; event = await stream.next()) events.push(event);
      return events;
    },
    close: () => reader.cancel(),
  };
  return stream;
}

const itemIndexes = (events: EventSourceMessage[]) =>
  events.filter((e) => e.event === "item").map((e) => JSON.parse(e.data).index as number);

describe("GET /v2/{environment}/person/contact-info/{id}/events", () => {
  it("delivers every item event exactly once across a reconnect with Last-Event-ID, and ends with completed", async () => {
    const inputs = Array.from({ length: 8 }, (_, i) => person({ firstName: `P${i}` }));
    const { key, id, messages } = await createStoredBatch(inputs);
    const first = await openEvents(key, id);
    expect(await first.next()).toMatchObject({ event: "progress", id: "0" });
    await deliver("contact-info-items", messages.slice(0, 3));
    const seen: EventSourceMessage[] = [];
    while (itemIndexes(seen).length < 3) seen.push((await first.next())!);
    await first.close();
    // Finished while nobody listened: the reconnect replays them from the log.
    await deliver("contact-info-items", messages.slice(3, 6));
    const last = seen.at(-1)!.id!;
    const second = await openEvents(key, id, { lastEventId: last });
    const resumed: EventSourceMessage[] = [];
    while (itemIndexes(resumed).length < 3) resumed.push((await second.next())!);
    await deliver("contact-info-items", messages.slice(6));
    resumed.push(...(await second.rest()));

    const all = [...seen, ...resumed];
    expect(itemIndexes(all).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const itemIds = all.filter((e) => e.event === "item").map((e) => Number(e.id));
    expect(itemIds).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const completed = resumed.at(-1)!;
    expect(completed).toMatchObject({ event: "completed", id: "8" });
    expect(JSON.parse(completed.data)).toMatchObject({
      id,
      status: "completed",
      totalItems: 8,
      completedItems: 8,
      failedItems: 0,
    });
    for (const progress of all.filter((e) => e.event === "progress")) {
      expect(Object.keys(JSON.parse(progress.data)).sort()).toEqual(Object.keys(JSON.parse(completed.data)).sort());
    }
  });

  it("keeps its event numbers across an eviction: a reconnect to the new instance resumes exactly", async () => {
    const { key, id, messages } = await createStoredBatch(
      Array.from({ length: 6 }, (_, i) => person({ firstName: `E${i}` })),
    );
    const first = await openEvents(key, id);
    await deliver("contact-info-items", messages.slice(0, 3));
    const seen: EventSourceMessage[] = [];
    while (itemIndexes(seen).length < 3) seen.push((await first.next())!);
    // The connection drops (the platform does not evict an object while a stream is open, but a
    // restart ends its streams), the object goes, and the numbers live on in its SQLite.
    await first.close();
    await evictDurableObject(batchStub(env, id));
    await deliver("contact-info-items", messages.slice(3));
    const resumed = await (await openEvents(key, id, { lastEventId: seen.at(-1)!.id! })).rest();
    expect(itemIndexes([...seen, ...resumed]).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(resumed.filter((e) => e.event === "item").map((e) => e.id)).toEqual(["4", "5", "6"]);
    expect(resumed.at(-1)).toMatchObject({ event: "completed", id: "6" });
  });

  it("replays every item event to a late subscriber, each as the status route shows the item", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: [person(), { firstName: "Only" }, person({ companyDomain: "notfound.test" })],
    });
    await waitForCompletion(key, batchId);
    const events = await (await openEvents(key, batchId)).rest();
    expect(events.map((e) => e.event)).toEqual(["item", "item", "item", "completed"]);
    const status = await getStatus(key, batchId);
    const items = events.filter((e) => e.event === "item").map((e) => JSON.parse(e.data));
    expect(items.sort((a, b) => a.index - b.index)).toEqual(status.items);
    const { items: _, webhook: __, nextCursor: ___, ...counters } = status;
    expect(JSON.parse(events[3]!.data)).toEqual(counters);
  });

  it("on a completed batch, replays only what follows Last-Event-ID, then completed", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: [person(), person({ firstName: "B" }), person({ firstName: "C" })],
    });
    await waitForCompletion(key, batchId);
    const events = await (await openEvents(key, batchId, { lastEventId: "1" })).rest();
    expect(events.map((e) => [e.event, e.id])).toEqual([
      ["item", "2"],
      ["item", "3"],
      ["completed", "3"],
    ]);
    const counts = await (await openEvents(key, batchId, { query: "", lastEventId: "3" })).rest();
    expect(counts.map((e) => [e.event, e.id])).toEqual([["completed", "3"]]);
  });

  it("without items=true sends only the counters: progress, then completed", async () => {
    const { key, id, messages } = await createStoredBatch([person(), person({ firstName: "B" })]);
    const stream = await openEvents(key, id, { query: "" });
    expect(await stream.next()).toMatchObject({ event: "progress", id: "0" });
    await deliver("contact-info-items", messages);
    const events = await stream.rest();
    expect(events.every((e) => e.event !== "item")).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: "completed", id: "2" });
  });

  it("ends an open stream when its batch is deleted; opening one then answers 410", async () => {
    const { key, id } = await createStoredBatch([person(), person({ firstName: "B" })]);
    const stream = await openEvents(key, id);
    expect(await stream.next()).toMatchObject({ event: "progress" });
    expect((await request(`/v2/test/person/contact-info/${id}`, { key, method: "DELETE" })).status).toBe(204);
    expect(await stream.rest()).toEqual([]);
    await expectProblem(await request(eventsPath(id), { key }), 410, "batch_deleted");
  });

  it("answers another customer's batch and a missing one with the same 404", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person()] });
    const other = await createKey();
    const theirs = await expectProblem(await request(eventsPath(batchId), { key: other.key }), 404, "not_found");
    const missing = await expectProblem(
      await request(eventsPath(crypto.randomUUID()), { key: other.key }),
      404,
      "not_found",
    );
    expect(theirs.detail).toBe(missing.detail);
    await expectProblem(await request(eventsPath("not-a-uuid"), { key: other.key }), 404, "not_found");
  });

  it.each(["abc", "-1", "1.5", "99"])(
    "refuses Last-Event-ID %s with 400 invalid_last_event_id",
    async (lastEventId) => {
      const { key } = await createKey();
      const batchId = await submitBatch(key, { items: [person()] });
      const response = await request(eventsPath(batchId), { key, headers: { "last-event-id": lastEventId } });
      await expectProblem(response, 400, "invalid_last_event_id");
    },
  );

  it("refuses an unknown query parameter with 400 invalid_query", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [person()] });
    await expectProblem(await request(eventsPath(batchId, "?items=yes"), { key }), 400, "invalid_query");
    await expectProblem(await request(eventsPath(batchId, "?since=3"), { key }), 400, "invalid_query");
  });

  it("counts one Tier 4 request (contact_info_status) however many events the stream carries", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, {
      items: Array.from({ length: 5 }, (_, i) => person({ firstName: `P${i}` })),
    });
    await waitForCompletion(key, batchId);
    const before = await usedStatusRequests(key);
    const events = await (await openEvents(key, batchId)).rest();
    expect(events).toHaveLength(6);
    expect(await usedStatusRequests(key)).toBe(before + 1);
  });
});

async function usedStatusRequests(key: string): Promise<number> {
  const limits = await (await request("/v2/test/me/rate-limits", { key })).json<
    { endpointType: string; used: number }[]
  >();
  return limits.find((limit) => limit.endpointType === "contact_info_status")!.used;
}
