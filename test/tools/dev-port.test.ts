import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_KEYS, DEV_SECRETS } from "../../scripts/dev-keys";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";
import { FAKE_KEYS } from "../fakes/fake-keys";
import { hunter } from "../fakes/finders";
import { type LoopbackFake, serveOnLoopback } from "../fakes/loopback";
import { until } from "../until";

// `npm run dev -- --port N` as a reader runs it when 8787 is busy, and the tools finding
// that server by one rule: --base-url, then CONTACT_INFO_BASE_URL, then the default. The same
// server is given a vendor's key as README "Live data sources" says (`--var`), and has the
// Worker's required secrets from the script itself (scripts/dev-secrets.env).
const scratch = mkdtempSync(join(tmpdir(), "dev-port-"));
const people = join(scratch, "people.csv");
const unreachable = "http://127.0.0.1:9"; // the discard port: nothing answers HTTP there

/** `npm run enrich -- people.csv …` with CONTACT_INFO_BASE_URL as given and no API key but the local development one. */
function enrich(baseUrlVariable: string | undefined, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CONTACT_INFO_API_KEY;
  delete env.CONTACT_INFO_BASE_URL;
  if (baseUrlVariable !== undefined) env.CONTACT_INFO_BASE_URL = baseUrlVariable;
  const run = spawnSync("npx", ["tsx", "scripts/enrich.ts", people, ...args], {
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  return {
    status: run.status,
    stderr: run.stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn")),
  };
}

let server: LocalServer;
let vendor: LoopbackFake;

beforeAll(async () => {
  writeFileSync(people, "firstName,lastName,companyDomain\r\nAda,Lovelace,analytical.example\r\n");
  vendor = await serveOnLoopback(hunter);
  server = await startLocalServer({
    viaDevScript: true,
    prepare: async (state) => {
      execFileSync("npx", ["tsx", "scripts/keys.ts", "seed-dev", "--persist-to", state], { stdio: "ignore" });
    },
    // Live items ask only Hunter (the fake, which refuses any other key), and verify nothing.
    vars: {
      HUNTER_API_KEY: FAKE_KEYS.hunter,
      HUNTER_API_URL: vendor.url,
      ENRICHMENT_PROVIDERS: "hunter",
      ENRICHMENT_VERIFIERS: "",
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await vendor?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("npm run dev -- --port N", () => {
  it("serves on that port, on loopback", async () => {
    expect(server.url).not.toBe("http://127.0.0.1:8787");
    expect(server.output()).toContain(`Ready on ${server.url}`);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("is found by the tools through CONTACT_INFO_BASE_URL, with the local development key", () => {
    const run = enrich(server.url, "--out", join(scratch, "by-variable.csv"));
    expect(run.stderr.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(run.status).toBe(0);
    expect(readFileSync(join(scratch, "by-variable.csv"), "utf8")).toContain("ada.lovelace@analytical.example");
  });

  it("is found through --base-url, which wins over CONTACT_INFO_BASE_URL", () => {
    const run = enrich(unreachable, "--base-url", `${server.url}/`, "--out", join(scratch, "by-flag.csv"));
    expect(run.stderr.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(run.status).toBe(0);
  });

  it("is not asked when CONTACT_INFO_BASE_URL points elsewhere, and the error names that address", () => {
    const run = enrich(unreachable, "--out", join(scratch, "elsewhere.csv"));
    expect(run.status).toBe(1);
    expect(run.stderr.at(-1)).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:9 /);
  });

  it("refuses a CONTACT_INFO_BASE_URL that is not an http(s) URL, naming the variable", () => {
    const run = enrich("ftp://example.test");
    expect(run.status).toBe(2);
    expect(run.stderr.at(-1)).toMatch(/^error: CONTACT_INFO_BASE_URL must be an http\(s\) URL/);
  });
});

describe("npm run dev's secrets", () => {
  it("has the Worker's required secrets, without wrangler's warning that one is missing", async () => {
    expect(server.output()).not.toContain("Missing required secrets");
    // ADMIN_TOKEN: the admin API exists and takes the development token (a 404 would mean no token set).
    const revocation = await fetch(`${server.url}/admin/revocations`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEV_SECRETS.ADMIN_TOKEN}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(revocation.status).toBe(400);
  });

  it("takes a vendor's key from --var: a live item is found by that vendor", async () => {
    const key = DEV_KEYS.find((entry) => entry.environment === "live")!.key;
    const batches = `${server.url}/v2/live/person/contact-info`;
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const item = { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" };
    const submitted = await fetch(batches, { method: "POST", headers, body: JSON.stringify({ items: [item] }) });
    expect(submitted.status).toBe(202);
    const { batchId } = (await submitted.json()) as { batchId: string };
    type Page = { status: string; items: { sources: { name: string; outcome: string }[] }[] };
    const page = await until(async () => (await (await fetch(`${batches}/${batchId}`, { headers })).json()) as Page, {
      what: "the live batch completed",
      done: (read) => read.status === "completed",
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    expect(page.items[0]!.sources).toEqual([{ name: "hunter", outcome: "found" }]);
  });
});
