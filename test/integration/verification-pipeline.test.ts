import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../src/batch/stub";
import { callsMentioning } from "../fakes/upstreams";
import { createKey, request, submitBatch, until, waitForCompletion } from "../helpers";

// Verification end to end through the real queue: the sandbox's reserved domains in
// `test`; in `live`, the finders and both verifiers faked at the HTTP boundary
// (test/fakes/upstreams.ts: the scenario is the found address's domain).
const unique = () => crypto.randomUUID().slice(0, 8);
/** A live person every finder finds at `first.last@<domain>`. */
const person = (domain: string, firstName = "Vera") => ({
  firstName,
  lastName: `Check${unique()}`,
  companyDomain: domain,
});

describe("a sandbox batch", () => {
  it("verifies as the reserved company domains say, and other emails valid", async () => {
    const { key } = await createKey();
    const items = [
      "catchall.test",
      "invalid.test",
      "unknown.test",
      "analytical.example",
      "invalid.test",
      "notfound.test",
    ].map((companyDomain) => ({ fullName: "Ada Lovelace", companyDomain }));
    const status = await waitForCompletion(key, await submitBatch(key, { items, fields: ["email"] }));
    const [catchAll, invalid, unknown, other, duplicate, notFound] = status.items;
    expect(catchAll!.emails.map((e) => e.status)).toContain("catch_all");
    expect(new Set(catchAll!.emails.map((e) => e.status))).toEqual(new Set(["catch_all"]));
    // Its email verifies invalid: never returned, so nothing is found, and the item says why
    // (its finder's source says found); a duplicate takes the same, and a plain miss has no reason.
    expect(invalid).toMatchObject({
      status: "completed",
      outcome: "not_found",
      reason: "rejected_by_verification",
      emails: [],
    });
    expect(invalid!.sources).toContainEqual({ name: "sandbox", outcome: "found" });
    expect(duplicate).toMatchObject({ outcome: "not_found", reason: "rejected_by_verification" });
    expect(notFound).toMatchObject({ status: "completed", outcome: "not_found" });
    expect(notFound).not.toHaveProperty("reason");
    for (const item of [catchAll, unknown, other]) expect(item).not.toHaveProperty("reason");
    expect(new Set(unknown!.emails.map((e) => e.status))).toEqual(new Set(["unknown"]));
    expect(new Set(other!.emails.map((e) => e.status))).toEqual(new Set(["valid"]));
    expect(other!.sources).toEqual([
      { name: "sandbox", outcome: "found" },
      { name: "sandbox", outcome: "found", kind: "verifier" },
    ]);
  });
});

describe("a live batch", () => {
  it("never returns an address the verifiers call invalid: the item is not_found, rejected_by_verification", async () => {
    const { key } = await createKey({ environment: "live" });
    const items = [person("x-undeliverable.example"), person("x-spamtrap.example")];
    const status = await waitForCompletion(key, await submitBatch(key, { items, fields: ["email"] }, "live"));
    for (const item of status.items) {
      expect(item).toMatchObject({
        status: "completed",
        outcome: "not_found",
        reason: "rejected_by_verification",
        emails: [],
      });
      expect(item.sources).toContainEqual({ name: "zerobounce", outcome: "found", kind: "verifier" });
      expect(item.sources.some((source) => source.kind === undefined && source.outcome === "found")).toBe(true);
    }
    // The same people again: whether answered from the result cache or asked again, the reason holds.
    const again = await waitForCompletion(key, await submitBatch(key, { items, fields: ["email"] }, "live"));
    for (const item of again.items)
      expect(item).toMatchObject({ outcome: "not_found", reason: "rejected_by_verification" });
  });

  it("returns catch-all and role addresses as such", async () => {
    const { key } = await createKey({ environment: "live" });
    const status = await waitForCompletion(
      key,
      await submitBatch(
        key,
        { items: [person("x-catchall.example"), person("roles.example", "Sales")], fields: ["email"] },
        "live",
      ),
    );
    const [catchAll, role] = status.items;
    expect(catchAll!.emails[0]).toMatchObject({ status: "catch_all" });
    expect(catchAll!.emails[0]).not.toHaveProperty("role");
    expect(role!.emails[0]).toMatchObject({ status: "valid", role: true });
  });

  it("makes an address unknown when every verifier is out, and does not cache that result", async () => {
    const { key } = await createKey({ environment: "live" });
    const someone = person("x-verifiersdown.example");
    const first = await waitForCompletion(key, await submitBatch(key, { items: [someone], fields: ["email"] }, "live"));
    expect(first.items[0]).toMatchObject({ status: "completed", outcome: "found" });
    expect(first.items[0]!.emails.map((e) => e.status)).toEqual(["unknown"]);
    expect(first.items[0]!.sources.filter((s) => s.kind === "verifier")).toEqual([
      { name: "zerobounce", outcome: "unavailable", kind: "verifier" },
      { name: "neverbounce", outcome: "unavailable", kind: "verifier" },
    ]);
    const again = await waitForCompletion(key, await submitBatch(key, { items: [someone], fields: ["email"] }, "live"));
    expect(again.items[0]).toMatchObject({ fromCache: false });
  });

  it("reuses a customer's verdict on an address, and DELETE purges it", async () => {
    const { key, record } = await createKey({ environment: "live" });
    const someone = person("verdicts.example");
    const first = await waitForCompletion(key, await submitBatch(key, { items: [someone], fields: ["email"] }, "live"));
    expect(first.items[0]!.emails[0]).toMatchObject({ status: "valid" });
    const verdicts = async () =>
      (await env.RESULT_CACHE.list({ prefix: `verdict:live:${record.customerId}:` })).keys.map(({ name }) => name);
    expect(await verdicts()).toHaveLength(1);

    // The same person written another way: a result-cache miss, so the finders are asked
    // and find the same address, but its verdict is reused.
    // Its own person's verifications only: other files' batches may call ZeroBounce meanwhile.
    const verifications = () => callsMentioning("zerobounce.test", someone.lastName.toLowerCase());
    const before = await verifications();
    const written = { fullName: `${someone.firstName} ${someone.lastName}`, companyDomain: someone.companyDomain };
    const batchId = await submitBatch(key, { items: [written], fields: ["email"] }, "live");
    const second = await waitForCompletion(key, batchId);
    expect(second.items[0]).toMatchObject({
      fromCache: false,
      emails: [{ address: first.items[0]!.emails[0]!.address, status: "valid" }],
    });
    expect(await verifications()).toBe(before);

    const removed = await request(`/v2/live/person/contact-info/${batchId}`, { method: "DELETE", key });
    expect(removed.status).toBe(204);
    const stub = batchStub(env, batchId);
    await until(
      async () => {
        await runDurableObjectAlarm(stub);
        return runInDurableObject(
          stub,
          (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM cache_purge").one().n,
        );
      },
      { what: "the cache_purge rows left", done: (left) => left === 0 },
    );
    expect(await verdicts()).toEqual([]);
  });
});
