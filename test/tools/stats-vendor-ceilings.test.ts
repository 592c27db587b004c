import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../scripts/local-server";
import { batchClient, runTool } from "../blackbox-helpers";
import { FAKE_KEYS } from "../fakes/fake-keys";
import { hunter, pdl } from "../fakes/finders";
import { type LoopbackFake, serveOnLoopback } from "../fakes/loopback";

// VENDOR_DAILY_CALLS against `wrangler dev`, with Hunter and PDL faked on loopback: a live batch of
// three when Hunter has two calls left today, then `npm run stats` as the operator runs it.
let server: LocalServer;
let live: ServerKey;
const vendors: LoopbackFake[] = [];

beforeAll(async () => {
  const [hunterFake, pdlFake] = await Promise.all([serveOnLoopback(hunter), serveOnLoopback(pdl)]);
  vendors.push(hunterFake, pdlFake);
  server = await startLocalServer({
    prepare: async (state) => {
      [live] = (await seedKeys(state, [{ customerId: "cus_vendor_ceilings", environment: "live" }])) as [ServerKey];
    },
    vars: {
      HUNTER_API_KEY: FAKE_KEYS.hunter,
      HUNTER_API_URL: hunterFake.url,
      PDL_API_KEY: FAKE_KEYS.pdl,
      PDL_API_URL: pdlFake.url,
      ENRICHMENT_PROVIDERS: "hunter,pdl",
      ENRICHMENT_VERIFIERS: "",
      WATERFALL_ORDER: "fixed",
      VENDOR_DAILY_CALLS: "hunter=2,pdl=2000",
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all(vendors.map((vendor) => vendor.close()));
});

/** `npm run stats -- …` against the server, with the development admin token it takes on loopback. */
async function stats(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CONTACT_INFO_ADMIN_TOKEN;
  const result = await runTool("npm", ["run", "--silent", "stats", "--", "--base-url", server.url, ...args], { env });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe("a vendor's daily ceiling, against wrangler dev", () => {
  it("skips Hunter at its ceiling for PDL, and npm run stats shows each vendor's calls today against its ceiling", async () => {
    const client = batchClient(server, live);
    const people = ["Ann Ceiling", "Bob Ceiling", "Cy Ceiling"].map((fullName) => ({
      fullName,
      companyDomain: "ceiling.example",
    }));
    const body = { items: people, fields: ["email"] };
    const batchId = await client.submit(body);
    const [batch] = await client.untilCompleted([batchId], 60_000);
    const sources = batch!.items.map((item) => item.sources);
    expect(sources.filter((list) => list[0]?.outcome === "found")).toHaveLength(2);
    expect(sources.filter((list) => list[0]?.reason === "vendor_budget_exhausted")).toEqual([
      [
        { name: "hunter", outcome: "skipped", reason: "vendor_budget_exhausted" },
        { name: "pdl", outcome: "found" },
      ],
    ]);
    expect(batch).toMatchObject({ completedItems: 3, creditsCharged: 3 });

    const answer = JSON.parse(await stats("--json")) as { vendorCeilings: unknown[] };
    const day = new Date().toISOString().slice(0, 10);
    expect(answer.vendorCeilings).toEqual([
      { vendor: "hunter", day, calls: 2, ceiling: 2 },
      { vendor: "pdl", day, calls: 1, ceiling: 2000 },
    ]);
    const table = await stats();
    expect(table).toContain(`Vendor calls today (${day}, UTC), across every customer:`);
    expect(table).toMatch(/^hunter\s+2\s+2\s+100\.0%\s+at its ceiling: skipped until 00:00 UTC$/m);
    expect(table).toMatch(/^pdl\s+1\s+2000\s+\d+\.\d%$/m);
  });
});
