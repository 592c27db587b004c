import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import sample from "../../directory/sample.csv?raw";
import type { DirectoryEntry } from "../../src/enrichment/directory";
import { directoryWrites, parseDirectoryFile, toDirectoryEntry } from "../../src/enrichment/directory-import";
import { callsMentioning } from "../fakes/upstreams";
import { createKey, sentItems, submitBatch, waitForCompletion } from "../helpers";

// The verifiers' reports when ZeroBounce told (valid, catch_all or invalid), so NeverBounce was not asked.
const zeroBounceTold = [
  { name: "zerobounce", outcome: "found", kind: "verifier" },
  { name: "neverbounce", outcome: "skipped", kind: "verifier" },
];

// The whole live pipeline through the real queue: the sample directory in the
// real local KV, and DNS, the finders and the verifiers faked at the HTTP boundary.
const calls = async (host: string) =>
  (await (await fetch(`https://${host}/__calls`)).json<Record<string, number>>())[host] ?? 0;

beforeAll(async () => {
  const entries = parseDirectoryFile(sample, "csv").rows.map(
    ({ record }) => toDirectoryEntry(record) as DirectoryEntry,
  );
  await Promise.all(directoryWrites(entries).map(({ key, value }) => env.DIRECTORY.put(key, value)));
});

describe("a live batch", () => {
  it("finds directory people from the directory, and others down the waterfall", async () => {
    const { key } = await createKey({ environment: "live" });
    const batchId = await submitBatch(
      key,
      {
        items: [
          { linkedinUrl: "https://www.linkedin.com/in/avery-quill-example" },
          { email: "dmarsh@example.org" },
          { firstName: "Nadia", lastName: "Okafor", companyDomain: "newco.example" },
        ],
      },
      "live",
    );
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ status: "completed", completedItems: 3, failedItems: 0 });
    const [avery, dana, nadia] = status.items;
    expect(avery).toMatchObject({ outcome: "found", fromCache: false });
    // The directory satisfied both fields, so nothing further down was asked.
    expect(avery!.sources).toEqual([
      { name: "directory", outcome: "found" },
      { name: "pattern", outcome: "skipped" },
      { name: "hunter", outcome: "skipped" },
      { name: "pdl", outcome: "skipped" },
      { name: "apollo", outcome: "skipped" },
      { name: "prospeo", outcome: "skipped" },
      ...zeroBounceTold,
    ]);
    expect(avery!.emails[0]).toMatchObject({ address: "avery.quill@example.com", source: "directory" });
    expect(dana!.phones.map((p) => p.number)).toEqual(["+442079460101"]);
    // Not in the directory: the pattern guess is too weak, Hunter finds the email, PDL the phone.
    expect(nadia!.emails[0]).toMatchObject({
      address: "nadia.okafor@newco.example",
      source: "hunter",
      status: "valid",
    });
    expect(nadia!.phones[0]).toMatchObject({ number: "+12025550199", source: "pdl" });
  });

  it("still answers when a vendor keeps failing, with what the others found", async () => {
    const { key } = await createKey({ environment: "live" });
    const batchId = await submitBatch(
      key,
      { items: [{ fullName: "Kai Brenner", companyDomain: "vendors-down.example" }], fields: ["email"] },
      "live",
    );
    const [item] = (await waitForCompletion(key, batchId)).items;
    // The vendors answer 503 on every attempt; after the last one the item completes
    // with the pattern provider's guess instead of failing, verified.
    expect(item).toMatchObject({ status: "completed", outcome: "found" });
    expect(item!.emails).toEqual([
      {
        address: "kai.brenner@vendors-down.example",
        type: "work",
        status: "valid",
        confidence: 35,
        source: "pattern",
        verifiedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);
    expect(item!.sources).toEqual([
      { name: "directory", outcome: "not_found" },
      { name: "pattern", outcome: "found" },
      { name: "hunter", outcome: "unavailable" },
      { name: "pdl", outcome: "unavailable" },
      { name: "apollo", outcome: "unavailable" },
      { name: "prospeo", outcome: "unavailable" },
      ...zeroBounceTold,
    ]);
  });

  it("fails an item with source_unavailable, never not_found, when nothing was found while a vendor was down", async () => {
    const { key } = await createKey({ environment: "live" });
    // Only a phone is asked: the pattern, Hunter and Prospeo cannot give one; PDL and Apollo answer 503 on every attempt.
    const batchId = await submitBatch(
      key,
      { items: [{ fullName: "Lee Outage", companyDomain: "phones-down.example" }], fields: ["phone"] },
      "live",
    );
    const status = await waitForCompletion(key, batchId);
    expect(status).toMatchObject({ completedItems: 0, failedItems: 1 });
    expect(status.items[0]).toMatchObject({
      status: "failed",
      outcome: null,
      error: { code: "source_unavailable", message: expect.stringContaining("resubmit the item later") },
      sources: [
        { name: "directory", outcome: "not_found" },
        { name: "pattern", outcome: "not_found" },
        { name: "hunter", outcome: "not_found" },
        { name: "pdl", outcome: "unavailable" },
        { name: "apollo", outcome: "unavailable" },
        { name: "prospeo", outcome: "not_found" },
      ],
    });
  });

  it("does not cache a result a source was unavailable for, even when retrying could not change it", async () => {
    const { key } = await createKey({ environment: "live" });
    // Hunter and PDL answer 200 with a body that is not JSON: unavailable (their fault, test/integration/vendor-faults.test.ts).
    // (Apollo and Prospeo find the address, which verifies valid.)
    const person = { fullName: "Gil Garbled", companyDomain: "vendors-garbage.example" };
    const first = await waitForCompletion(key, await submitBatch(key, { items: [person], fields: ["email"] }, "live"));
    expect(first.items[0]).toMatchObject({ status: "completed", outcome: "found", fromCache: false });
    const hunterCalls = await calls("hunter.test");

    const again = await waitForCompletion(key, await submitBatch(key, { items: [person], fields: ["email"] }, "live"));
    expect(again.items[0]).toMatchObject({ status: "completed", outcome: "found", fromCache: false });
    expect(again.items[0]!.sources).toEqual([
      { name: "directory", outcome: "not_found" },
      { name: "pattern", outcome: "found" },
      { name: "hunter", outcome: "unavailable" },
      { name: "pdl", outcome: "unavailable" },
      { name: "apollo", outcome: "found" },
      { name: "prospeo", outcome: "skipped" },
      ...zeroBounceTold,
    ]);
    expect(await calls("hunter.test")).toBeGreaterThan(hunterCalls);
  });

  it("serves a repeated person from the result cache without asking the providers again", async () => {
    const { key } = await createKey({ environment: "live" });
    const person = { firstName: "Iris", lastName: "Cached", companyDomain: "cache-me.example" };
    const first = await waitForCompletion(key, await submitBatch(key, { items: [person] }, "live"));
    expect(first.items[0]).toMatchObject({ outcome: "found", fromCache: false });
    // Calls about this person only: other files' batches may call the vendors meanwhile.
    const vendorCalls = async () => [
      await callsMentioning("hunter.test", "cache-me.example"),
      await callsMentioning("pdl.test", "cache-me.example"),
    ];
    const [hunter, pdl] = await vendorCalls();

    const again = await waitForCompletion(
      key,
      await submitBatch(key, { items: [{ ...person, firstName: " IRIS " }] }, "live"),
    );
    expect(again.items[0]).toMatchObject({
      outcome: "found",
      fromCache: true,
      emails: first.items[0]!.emails,
      phones: first.items[0]!.phones,
    });
    // Where the cached result came from, as when it was found.
    const sources = [
      { name: "directory", outcome: "not_found" },
      { name: "pattern", outcome: "found" },
      { name: "hunter", outcome: "found" },
      { name: "pdl", outcome: "found" },
      { name: "apollo", outcome: "skipped" },
      { name: "prospeo", outcome: "skipped" },
      ...zeroBounceTold,
    ];
    expect(first.items[0]!.sources).toEqual(sources);
    expect(again.items[0]!.sources).toEqual(sources);
    expect(await vendorCalls()).toEqual([hunter, pdl]);
  });

  it("enriches identical people in one batch once and gives each the result", async () => {
    const { key } = await createKey({ environment: "live" });
    const send = vi.spyOn(env.ITEM_QUEUE, "sendBatch");
    try {
      const batchId = await submitBatch(
        key,
        {
          items: [
            { externalId: "a", firstName: "Omar", lastName: "Twice", companyDomain: "dupes.example" },
            { externalId: "b", firstName: "omar", lastName: "twice ", companyDomain: "DUPES.example" },
            { externalId: "c", email: "someone.else@dupes.example" },
            { externalId: "d", fullName: "Omar Twice", companyDomain: "dupes.example" },
          ],
        },
        "live",
      );
      const status = await waitForCompletion(key, batchId);
      const sent = sentItems(send.mock.calls).filter((item) => item.batchId === batchId);
      // a and b are the same person once normalized; d is written differently, so it is asked for separately.
      expect(sent.map((m) => m.index).sort()).toEqual([0, 2, 3]);
      expect(status.completedItems).toBe(4);
      expect(status.items[1]!.emails).toEqual(status.items[0]!.emails);
      expect(status.items[1]!.externalId).toBe("b");
    } finally {
      send.mockRestore();
    }
  });
});

describe("a test batch", () => {
  it("is never served from the result cache", async () => {
    const { key } = await createKey();
    const item = { firstName: "Sam", lastName: "Sandbox", companyDomain: "flaky.test" };
    await waitForCompletion(key, await submitBatch(key, { items: [item] }));
    const again = await waitForCompletion(key, await submitBatch(key, { items: [item] }));
    expect(again.items[0]).toMatchObject({ outcome: "found", fromCache: false });
  });
});
