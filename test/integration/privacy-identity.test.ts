import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountStub } from "../../src/account/stub";
import type { Environment } from "../../src/base/environment";
import { sha256Hex } from "../../src/base/sha256";
import { MIGRATIONS } from "../../src/batch/migrations";
import { batchStub } from "../../src/batch/stub";
import { normalizePerson } from "../../src/contact-info/person";
import { identifierKeys } from "../../src/contact-info/person-keys";
import { createKey, request, submitBatch, until, waitForCompletion } from "../helpers";
import { keyedHash } from "../keyed-hash";

// One identity rule (issue 34, findings 1 and 5): erasure and the do-not-enrich list reach a person by
// every name a finder could have asked with, however the name was composed; and what the account
// keeps of people are keyed hashes, to which an older deploy's plain SHA-256 hashes are migrated.

const post = (key: string, path: string, body: unknown, environment: Environment = "live") =>
  request(`/v2/${environment}${path}`, {
    method: "POST",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The customer's live result-cache keys. */
const cachedResults = async (customerId: string) =>
  (await env.RESULT_CACHE.list({ prefix: `result:live:${customerId}:` })).keys.map(({ name }) => name);

describe("an erasure", () => {
  it("by first + last name reaches an item that also carried another full name: its results and cache entries go", async () => {
    const { key, record } = await createKey({ environment: "live" });
    const domain = `identity-${crypto.randomUUID().slice(0, 8)}.example`;
    const item = { fullName: "Supp Other", firstName: "Supp", lastName: "Hunter", companyDomain: domain };
    const batchId = await submitBatch(key, { items: [item] }, "live");
    const before = await waitForCompletion(key, batchId);
    expect(before.items[0]).toMatchObject({ status: "completed", outcome: "found" });
    await until(() => cachedResults(record.customerId), {
      what: "the cached result",
      done: (keys) => keys.length === 1,
    });

    const receipt = await (
      await post(key, "/privacy/erasures", {
        firstName: "Supp",
        lastName: "Hunter",
        companyDomain: domain,
        suppress: false,
      })
    ).json();
    expect(receipt).toMatchObject({ items: 1, batches: 1 });
    expect((await waitForCompletion(key, batchId)).items[0]).toMatchObject({ input: {}, emails: [], phones: [] });
    expect(await cachedResults(record.customerId)).toEqual([]);
    // Asked again, the person is looked up afresh: nothing of them was left to serve.
    const again = await waitForCompletion(key, await submitBatch(key, { items: [item] }, "live"));
    expect(again.items[0]).toMatchObject({ fromCache: false });
  });

  it("by a name composed one way (NFC) reaches the item submitted composed the other (NFD)", async () => {
    const { key } = await createKey();
    const domain = `identity-${crypto.randomUUID().slice(0, 8)}.example`;
    const batchId = await submitBatch(key, {
      items: [{ fullName: "Zoë Ünal".normalize("NFD"), companyDomain: domain }],
    });
    await waitForCompletion(key, batchId);
    const receipt = await (
      await post(
        key,
        "/privacy/erasures",
        { fullName: "Zoë Ünal".normalize("NFC"), companyDomain: domain, suppress: false },
        "test",
      )
    ).json();
    expect(receipt).toMatchObject({ items: 1, batches: 1 });
  });
});

/** The batch migration that drops plain hashes, by its number (the migrations before it, applied). */
const KEYED_HASHES_MIGRATION = MIGRATIONS.findIndex((migration) => migration.includes("SET hashes = NULL"));

/** An account as the deploy before keyed hashes left it: without what account migrations 4 and 5 made. */
function accountAtVersion3(sql: SqlStorage) {
  sql.exec(`DROP TABLE suppressions_unkeyed; DROP TABLE usage_latency; DROP TABLE domain_sources; DROP TABLE do_not_deliver; DROP TABLE crm_connections;
    ALTER TABLE batches DROP COLUMN credits_refunded; ALTER TABLE usage_days DROP COLUMN credits_refunded;
    ALTER TABLE usage_sources DROP COLUMN reported; ALTER TABLE usage_sources DROP COLUMN credits_refunded;
    ALTER TABLE usage_sources DROP COLUMN verified_valid; ALTER TABLE usage_sources DROP COLUMN rate_limited;
    UPDATE schema_version SET version = 3`);
}

/**
 * A batch as the deploy before keyed hashes left it: back to before that migration (those after it run
 * again), without the columns a later migration adds (feedback and freshness, issue 39).
 */
function batchBeforeKeyedHashes(sql: SqlStorage) {
  sql.exec(`ALTER TABLE batch DROP COLUMN credits_refunded; ALTER TABLE batch DROP COLUMN max_age_days;
    ALTER TABLE items DROP COLUMN credits_refunded; ALTER TABLE items DROP COLUMN feedback`);
  sql.exec("UPDATE schema_version SET version = ?", KEYED_HASHES_MIGRATION);
}

describe("keyed hashes, migrated from an older deploy's plain SHA-256", () => {
  it("key the account's suppression list in place, so a person listed before is still never looked up", async () => {
    const { key, record } = await createKey({ environment: "live" });
    const domain = `listed-${crypto.randomUUID().slice(0, 8)}.example`;
    const listed = normalizePerson({ firstName: "Lee", lastName: "Listed", companyDomain: domain });
    const plain = await Promise.all(identifierKeys(listed).map((text) => sha256Hex(text)));
    const account = accountStub(env, { customerId: record.customerId, environment: "live" });
    // The account as the deploy before keyed hashes left it: its list of plain SHA-256 hashes, at version 3.
    await runInDurableObject(account, (_, state) => {
      accountAtVersion3(state.storage.sql);
      for (const hash of plain)
        state.storage.sql.exec(
          "INSERT INTO suppressions (key, created_at) VALUES (?, '2026-11-01T00:00:00.000Z')",
          hash,
        );
    });
    await evictDurableObject(account);

    const listedNow = await runInDurableObject(account, (_, state) =>
      state.storage.sql.exec<{ key: string; created_at: string }>("SELECT key, created_at FROM suppressions").toArray(),
    );
    expect(listedNow).toEqual(
      identifierKeys(listed).map((text) => ({
        key: keyedHash(record.customerId, "live", text),
        created_at: "2026-11-01T00:00:00.000Z",
      })),
    );
    const batch = await waitForCompletion(
      key,
      await submitBatch(
        key,
        { items: [{ fullName: "Lee Listed", firstName: "Lee", lastName: "Listed", companyDomain: domain }] },
        "live",
      ),
    );
    expect(batch.items[0]).toMatchObject({ status: "failed", error: { code: "suppressed" } });
  });

  it("drop a batch's plain hashes and send its people to the index again, keyed", async () => {
    const { key, record } = await createKey();
    const email = `indexed-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const [identifier] = identifierKeys(normalizePerson({ email }));
    const plain = await sha256Hex(identifier!);
    const keyed = keyedHash(record.customerId, "test", identifier!);
    const batchId = await submitBatch(key, { items: [{ email }] });
    await waitForCompletion(key, batchId);
    const batch = batchStub(env, batchId);
    const account = accountStub(env, { customerId: record.customerId, environment: "test" });
    const indexedKeys = async () =>
      (
        await runInDurableObject(account, (_, state) =>
          state.storage.sql.exec<{ key: string }>("SELECT key FROM person_index WHERE batch_id = ?", batchId).toArray(),
        )
      ).map((row) => row.key);
    await until(indexedKeys, { what: "the batch in the index", done: (keys) => keys.length === 1 });
    expect(await indexedKeys()).toEqual([keyed]);
    // Both objects as the deploy before left them: plain hashes, one migration back.
    await runInDurableObject(batch, (_, state) => {
      state.storage.sql.exec("UPDATE items SET hashes = json_object('person', 'x', 'keys', json_array(?))", plain);
      batchBeforeKeyedHashes(state.storage.sql);
    });
    await runInDurableObject(account, (_, state) => {
      accountAtVersion3(state.storage.sql);
      state.storage.sql.exec("UPDATE person_index SET key = ?", plain);
    });
    await Promise.all([evictDurableObject(batch), evictDurableObject(account)]);

    expect(await indexedKeys()).toEqual([]);
    const migrated = await runInDurableObject(batch, (_, state) => ({
      hashes: state.storage.sql.exec("SELECT hashes FROM items").one().hashes,
      indexed: state.storage.sql.exec("SELECT people_indexed FROM batch").one().people_indexed,
    }));
    expect(migrated).toEqual({ hashes: null, indexed: 0 });
    // Until it is indexed again, every erasure asks the batch, which then indexes itself, keyed.
    const receipt = await (
      await post(key, "/privacy/erasures", { email: "someone-else@example.com", suppress: false }, "test")
    ).json();
    expect(receipt).toMatchObject({ items: 0 });
    await until(indexedKeys, { what: "the batch indexed again", done: (keys) => keys.length === 1 });
    expect(await indexedKeys()).toEqual([keyed]);
  });
});
