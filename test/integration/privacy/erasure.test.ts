import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../../src/account/stub";
import { readConfig } from "../../../src/base/config";
import type { Environment } from "../../../src/base/environment";
import { batchStub } from "../../../src/batch/stub";
import { normalizePerson, personKey } from "../../../src/contact-info/person";
import { identifierKeys } from "../../../src/contact-info/person-keys";
import { verdictCacheKey } from "../../../src/enrichment/result-cache";
import {
  createKey,
  createStoredBatch,
  deliver,
  expectProblem,
  itemMessage,
  request,
  setClockAhead,
  submitBatch,
  until,
  untilAtRest,
  waitForCompletion,
} from "../../helpers";
import { keyedHash } from "../../keyed-hash";
import { captureLogs } from "../../log-capture";

// Erasure of a person (POST …/privacy/erasures) across a customer's batches and
// caches, found through the account's person index: the live pipeline through
// the real queue and local KV, vendors faked at the HTTP boundary.

const erase = (key: string, body: unknown, environment: Environment = "live") =>
  request(`/v2/${environment}/privacy/erasures`, {
    method: "POST",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The customer's live cache keys: results and verdicts. */
const cached = async (customerId: string) => [
  ...(await env.RESULT_CACHE.list({ prefix: `result:live:${customerId}:` })).keys.map(({ name }) => name),
  ...(await env.RESULT_CACHE.list({ prefix: `verdict:live:${customerId}:` })).keys.map(({ name }) => name),
];

/** Until the account's person index holds `batches` batches of the customer. */
const untilIndexed = (customerId: string, batches: number, environment: Environment = "live") =>
  until(
    () =>
      runInDurableObject(
        accountStub(env, { customerId, environment }),
        (_, state) =>
          state.storage.sql.exec<{ n: number }>("SELECT count(DISTINCT batch_id) AS n FROM person_index").one().n,
      ),
    { what: "the batches in the person index", done: (n) => n === batches },
  );

afterEach(() => {
  vi.useRealTimers();
});

describe("POST …/privacy/erasures", () => {
  it("erases the person from every batch holding them and from the caches, asking only those batches, and keeps a receipt", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const domain = `erasure-${tag}.example`;
    // One person, given two ways; and people nobody erases.
    const asSubmitted = { firstName: "Erin", lastName: `Erase${tag}`, companyDomain: domain, externalId: "crm-1" };
    const asFullName = { fullName: `erin  erase${tag}`, companyDomain: domain.toUpperCase() };
    const bystander = (n: number) => ({
      firstName: "Bea",
      lastName: `Stander${n}${tag}`,
      companyDomain: `bystander-${tag}.example`,
    });

    const mine = await createKey({ environment: "live" });
    const customerId = mine.record.customerId;
    const first = await submitBatch(mine.key, { items: [asSubmitted, bystander(1)] }, "live");
    const second = await submitBatch(mine.key, { items: [bystander(2), asFullName] }, "live");
    const third = await submitBatch(mine.key, { items: [bystander(3)] }, "live");
    const theirs = await createKey({ environment: "live" });
    const theirBatch = await submitBatch(theirs.key, { items: [asSubmitted] }, "live");
    const before = {
      first: await waitForCompletion(mine.key, first),
      second: await waitForCompletion(mine.key, second),
      theirs: await waitForCompletion(theirs.key, theirBatch),
    };
    await waitForCompletion(mine.key, third);
    expect(before.first.items[0]).toMatchObject({ outcome: "found", status: "completed" });
    expect(before.first.items[0]!.emails.length).toBeGreaterThan(0);
    await untilIndexed(customerId, 3);
    const cacheBefore = await cached(customerId);
    const theirCacheBefore = await cached(theirs.record.customerId);
    // Results of both forms of the person (their keys differ), the bystanders', and verdicts on found addresses.
    expect(cacheBefore.filter((key) => key.startsWith("result:"))).toHaveLength(5);
    expect(cacheBefore.filter((key) => key.startsWith("verdict:")).length).toBeGreaterThanOrEqual(5);

    const logs = captureLogs();
    const response = await erase(mine.key, { firstName: "ERIN", lastName: `erase${tag}`, companyDomain: domain });
    logs.restore();
    expect(response.status).toBe(200);
    const receipt = await response.json<{ id: string; erasedAt: string; items: number; batches: number }>();
    expect(receipt).toEqual({ id: expect.any(String), erasedAt: expect.any(String), items: 2, batches: 2 });
    // Only the two batches holding the person were called: the index, not a scan of the customer's three.
    expect(logs.events("person_erased")).toEqual([
      expect.objectContaining({ erasureId: receipt.id, batchesAsked: 2, batches: 2, items: 2 }),
    ]);
    expect(
      logs
        .events("person_erased_from_batch")
        .map((event) => event.batchId)
        .sort(),
    ).toEqual([first, second].sort());
    expect(logs.lines().join("\n")).not.toMatch(new RegExp(`erin|${tag}`, "i"));

    const after = {
      first: await waitForCompletion(mine.key, first),
      second: await waitForCompletion(mine.key, second),
    };
    for (const [batch, index] of [
      [after.first, 0],
      [after.second, 1],
    ] as const) {
      expect(batch.items[index]).toMatchObject({
        input: {},
        externalId: null,
        emails: [],
        phones: [],
        status: "completed",
        erasedAt: receipt.erasedAt,
      });
    }
    expect(JSON.stringify(after)).not.toMatch(new RegExp(`erase${tag}`, "i"));
    // Counters, outcomes and charges unchanged; the bystanders untouched.
    for (const name of ["first", "second"] as const) {
      const { items: itemsBefore, ...countsBefore } = before[name];
      const { items: itemsAfter, ...countsAfter } = after[name];
      expect(countsAfter).toEqual(countsBefore);
      expect(itemsAfter.map(({ outcome, credits, status }) => ({ outcome, credits, status }))).toEqual(
        itemsBefore.map(({ outcome, credits, status }) => ({ outcome, credits, status })),
      );
    }
    expect(after.first.items[1]).toEqual(before.first.items[1]);
    expect(after.second.items[0]).toEqual(before.second.items[0]);

    // The caches: the person's results and the verdicts on their found addresses are gone, the rest stay.
    const cacheAfter = await cached(customerId);
    expect(cacheAfter.filter((key) => key.startsWith("result:"))).toHaveLength(3);
    const erasedAddresses = [...before.first.items[0]!.emails, ...before.second.items[1]!.emails].map(
      ({ address }) => address,
    );
    const erasedVerdicts = await Promise.all(
      erasedAddresses.map((address) => verdictCacheKey({ customerId, environment: "live" }, address)),
    );
    expect(cacheBefore).toEqual(expect.arrayContaining(erasedVerdicts));
    for (const verdict of erasedVerdicts) expect(cacheAfter).not.toContain(verdict);
    expect(cacheBefore).toEqual(expect.arrayContaining(cacheAfter));

    // Another customer's same person: untouched, item and cache.
    expect(await waitForCompletion(theirs.key, theirBatch)).toEqual(before.theirs);
    expect(await cached(theirs.record.customerId)).toEqual(theirCacheBefore);

    // The receipt, later; not for another customer.
    const read = await request(`/v2/live/privacy/erasures/${receipt.id}`, { key: mine.key });
    expect(await read.json()).toEqual(receipt);
    await expectProblem(
      await request(`/v2/live/privacy/erasures/${receipt.id}`, { key: theirs.key }),
      404,
      "not_found",
    );
    // Suppressed by default, under the person's name-and-domain key.
    const list = await (await request("/v2/live/privacy/suppressions", { key: mine.key })).json<{
      suppressions: unknown[];
    }>();
    expect(list.suppressions).toHaveLength(1);
    // The index forgot where the person was: an erasure again finds nothing.
    expect(await (await erase(mine.key, { email: "nobody@example.com", suppress: false })).json()).toMatchObject({
      items: 0,
      batches: 0,
    });
    expect(await (await erase(mine.key, { fullName: `Erin Erase${tag}`, companyDomain: domain })).json()).toMatchObject(
      {
        items: 0,
        batches: 0,
      },
    );
  });

  it("ends an item still pending as failed with erased, and its message is dropped unrecorded; the batch is indexed once complete", async () => {
    const people = [
      { email: `pending-${crypto.randomUUID().slice(0, 8)}@example.com` },
      { email: "stays@example.com" },
    ];
    // Its messages vanish: the test delivers them, so its items stay pending until then.
    const { key, record, id } = await createStoredBatch(people, undefined, ["email"]);
    // Registered, but not indexed while its items are processed: the erasure asks it as a batch not wholly indexed.
    const account = accountStub(env, { customerId: record.customerId, environment: "test" });
    const indexed = () =>
      runInDurableObject(account, (_, state) => ({
        rows: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM person_index").one().n,
        batches: state.storage.sql
          .exec<{ n: number }>("SELECT count(*) AS n FROM batches WHERE people_complete = 0")
          .one().n,
      }));
    expect(await indexed()).toEqual({ rows: 0, batches: 1 });

    const receipt = await (await erase(key, { email: people[0]!.email.toUpperCase(), suppress: false }, "test")).json();
    expect(receipt).toMatchObject({ items: 1, batches: 1 });
    const messages = people.map((input, index) => itemMessage(id, index, input, record.customerId));
    const logs = captureLogs();
    const delivered = await deliver("contact-info-items", messages);
    logs.restore();
    expect(delivered.explicitAcks).toHaveLength(2);
    expect(logs.events("items_dropped")).toEqual([expect.objectContaining({ batchId: id, items: 1 })]);
    const batch = await waitForCompletion(key, id);
    expect(batch).toMatchObject({ completedItems: 1, failedItems: 1 });
    expect(batch.items[0]).toMatchObject({
      status: "failed",
      error: { code: "erased" },
      input: {},
      sources: [],
      erasedAt: expect.any(String),
    });
    expect(batch.items[1]).toMatchObject({ status: "completed", input: people[1] });
    // Complete, it indexes the person left (the erased one is not): one identifier key.
    await until(indexed, { what: "the batch indexed", done: (now) => now.batches === 0 });
    expect(await indexed()).toEqual({ rows: 1, batches: 0 });
  });

  it("with suppress false, erases without adding to the suppression list", async () => {
    const { key } = await createKey();
    const batchId = await submitBatch(key, { items: [{ email: "once@example.com" }] });
    await waitForCompletion(key, batchId);
    const response = await erase(key, { email: "once@example.com", suppress: false }, "test");
    expect(response.status).toBe(200);
    const list = await (await request("/v2/test/privacy/suppressions", { key })).json<{ suppressions: unknown[] }>();
    expect(list.suppressions).toEqual([]);
  });

  it("refuses a body that does not identify a person as a submit item does", async () => {
    const { key } = await createKey();
    const noCompany = await expectProblem(
      await erase(key, { firstName: "Ada", lastName: "Lovelace" }, "test"),
      400,
      "invalid_request",
    );
    expect(noCompany.errors).toEqual([expect.objectContaining({ path: "companyDomain" })]);
    await expectProblem(await erase(key, { email: "not-an-email" }, "test"), 400, "invalid_request");
    await expectProblem(await erase(key, { email: "a@example.com", suppress: "no" }, "test"), 400, "invalid_request");
    await expectProblem(await erase(key, { email: "a@example.com", phone: "+1" }, "test"), 400, "invalid_request");
    await expectProblem(await erase(key, [], "test"), 400, "invalid_request");
    await expectProblem(await request("/v2/test/privacy/erasures/not-an-id", { key }), 404, "not_found");
  });

  it("finds nothing in a batch retention emptied: the batch leaves the index when it expires", async () => {
    const { key, record } = await createKey();
    const batchId = await submitBatch(key, { items: [{ email: "retained@example.com" }] });
    await waitForCompletion(key, batchId);
    await untilIndexed(record.customerId, 1, "test");
    // The alarm's steps after the report (handing events to the webhook hub) are done, so it waits for retention.
    await untilAtRest(batchStub(env, batchId));
    setClockAhead(readConfig(env).retentionSeconds * 1000 + 1000);
    expect(await runDurableObjectAlarm(batchStub(env, batchId))).toBe(true);
    vi.useRealTimers();
    await untilIndexed(record.customerId, 0, "test");
    expect(await (await erase(key, { email: "retained@example.com" }, "test")).json()).toMatchObject({
      items: 0,
      batches: 0,
    });
  });

  it("indexes each person by the keyed hashes made once at submission, of their person key and identifier keys", async () => {
    const { key, record } = await createKey();
    const people = [
      { email: "Hashed.Once@Example.com", fullName: "Hash Once", companyDomain: "once.example" },
      { linkedinUrl: "https://www.linkedin.com/in/hashed-once" },
      { firstName: "Ada", lastName: "Lovelace" },
    ];
    const batchId = await submitBatch(key, { items: people });
    await waitForCompletion(key, batchId);
    await untilIndexed(record.customerId, 1, "test");
    // Hashed here by node:crypto, from the keys the submission made.
    const hash = (text: string) => keyedHash(record.customerId, "test", text);
    const expected = people.slice(0, 2).map((input) => {
      const person = normalizePerson(input);
      return { person: hash(personKey(person)), keys: identifierKeys(person).map(hash) };
    });
    const stored = await runInDurableObject(batchStub(env, batchId), (_, state) =>
      state.storage.sql.exec<{ hashes: string | null }>("SELECT hashes FROM items ORDER BY idx").toArray(),
    );
    // The third item is invalid (a name without a company): nothing to hash.
    expect(stored.map(({ hashes }) => hashes && JSON.parse(hashes))).toEqual([...expected, null]);
    const indexed = await runInDurableObject(
      accountStub(env, { customerId: record.customerId, environment: "test" }),
      (_, state) =>
        state.storage.sql
          .exec<{ key: string; person_hash: string }>("SELECT key, person_hash FROM person_index")
          .toArray(),
    );
    expect(indexed.map(({ key, person_hash }) => `${key}:${person_hash}`).sort()).toEqual(
      expected.flatMap(({ person, keys }) => keys.map((key) => `${key}:${person}`)).sort(),
    );
  });
});
