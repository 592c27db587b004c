import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callsMentioning } from "../fakes/upstreams";
import { createKey, submitBatch, waitForCompletion } from "../helpers";

// Freshness through the live pipeline: the real queue and local KV, vendors faked at the HTTP boundary.
const DAY_MS = 86_400_000;

/** A person the fake vendors find, met by no other test. */
const someone = () => ({
  firstName: "Fern",
  lastName: `Fresh${crypto.randomUUID().slice(0, 8)}`,
  companyDomain: "erasure.example",
});

const finderCalls = async (lastName: string) =>
  (await callsMentioning("hunter.test", lastName.toLowerCase())) +
  (await callsMentioning("pdl.test", lastName.toLowerCase()));

/** Moves every contact of the customer's cached results `days` into the past, and forgets its cached verdicts. */
async function ageCache(customerId: string, days: number) {
  const { keys } = await env.RESULT_CACHE.list({ prefix: `result:live:${encodeURIComponent(customerId)}:` });
  for (const { name } of keys) {
    const entry = await env.RESULT_CACHE.get<{ emails: { verifiedAt?: string }[]; phones: { verifiedAt?: string }[] }>(
      name,
      { type: "json" },
    );
    if (!entry) continue;
    const aged = new Date(Date.now() - days * DAY_MS).toISOString();
    for (const contact of [...entry.emails, ...entry.phones]) contact.verifiedAt = aged;
    await env.RESULT_CACHE.put(name, JSON.stringify(entry));
  }
  const verdicts = await env.RESULT_CACHE.list({ prefix: `verdict:live:${encodeURIComponent(customerId)}:` });
  for (const { name } of verdicts.keys) await env.RESULT_CACHE.delete(name);
  return keys.length;
}

describe("fresh results", () => {
  it("stamps each email and phone with verifiedAt; an older cached email is verified again, not found again", async () => {
    const person = someone();
    const { key, record } = await createKey({ environment: "live" });
    const first = await waitForCompletion(key, await submitBatch(key, { items: [person], fields: ["email"] }, "live"));
    const [found] = first.items;
    expect(found).toMatchObject({ outcome: "found", fromCache: false });
    for (const email of found?.emails ?? [])
      expect(Date.now() - Date.parse(email.verifiedAt ?? "")).toBeLessThan(60_000);

    expect(await ageCache(record.customerId, 40)).toBe(1);
    const finders = await finderCalls(person.lastName);
    const verifications = await callsMentioning("zerobounce.test", person.lastName.toLowerCase());
    const body = { items: [person], fields: ["email"], maxAgeDays: 30 };
    const [again] = (await waitForCompletion(key, await submitBatch(key, body, "live"))).items;
    expect(again).toMatchObject({ outcome: "found", fromCache: true, credits: 0 });
    expect(again?.emails.map(({ address }) => address)).toEqual(found?.emails.map(({ address }) => address));
    for (const email of again?.emails ?? [])
      expect(Date.now() - Date.parse(email.verifiedAt ?? "")).toBeLessThan(60_000);
    expect(await finderCalls(person.lastName)).toBe(finders);
    expect(await callsMentioning("zerobounce.test", person.lastName.toLowerCase())).toBeGreaterThan(verifications);
  });

  it("serves a result younger than maxAgeDays from the cache, and none with maxAgeDays 0", async () => {
    const person = someone();
    const { key, record } = await createKey({ environment: "live" });
    await waitForCompletion(key, await submitBatch(key, { items: [person], fields: ["email"] }, "live"));
    await ageCache(record.customerId, 10);
    const within = { items: [person], fields: ["email"], maxAgeDays: 30 };
    expect((await waitForCompletion(key, await submitBatch(key, within, "live"))).items[0]).toMatchObject({
      fromCache: true,
    });
    const finders = await finderCalls(person.lastName);
    const never = { ...within, maxAgeDays: 0 };
    expect((await waitForCompletion(key, await submitBatch(key, never, "live"))).items[0]).toMatchObject({
      outcome: "found",
      fromCache: false,
    });
    expect(await finderCalls(person.lastName)).toBeGreaterThan(finders);
  });
});
