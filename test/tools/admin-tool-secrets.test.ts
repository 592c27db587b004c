import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";

// The operator tools run as an operator runs them (`npm run keys`, `npm run directory`)
// with a home, config folder, wrangler log folder and temp dir of their own, so that every
// file they or wrangler leave behind can be read. Webhook secrets are shown once, by
// `create`; the directory's personal data is shown never. Neither may be in any file
// left behind: wrangler copies whatever it prints into its log (WRANGLER_LOG_PATH), and
// the tools pass values through temporary files.
const scratch = mkdtempSync(join(tmpdir(), "admin-secrets-"));
const store = join(scratch, "state"); // the KV store itself, where the secrets belong
const logs = join(scratch, "wrangler-logs");
const temp = join(scratch, "tmp");
for (const dir of [logs, temp, join(scratch, "home"), join(scratch, "config")]) mkdirSync(dir);
let server: LocalServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function npmRun(script: "keys" | "directory", ...args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(scratch, "home"),
    XDG_CONFIG_HOME: join(scratch, "config"),
    WRANGLER_LOG_PATH: logs,
    TMPDIR: temp,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
  };
  for (const name of ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_API_KEY", "DEBUG", "WRANGLER_LOG", "WRANGLER_WRITE_LOGS"])
    delete env[name];
  const result = spawnSync("npm", ["run", "--silent", script, "--", ...args, "--persist-to", store], {
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

const EMAILS = [...new Set(readFileSync("directory/sample.csv", "utf8").match(/[\w.+-]+@[\w.-]+\.\w+/g))];

/** Every file left under the scratch folders but the store (wrangler's logs, temp files, npm's logs), as [path, text]. */
function filesLeft(): [string, string][] {
  return readdirSync(scratch, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.startsWith(`${store}/`))
    .map((path) => [relative(scratch, path), readFileSync(path, "latin1")]);
}

/** Files holding `secret`, apart from tsx's compile cache: the tools' own source, where the published dev secret is a constant. */
function filesHolding(secret: string): string[] {
  return filesLeft()
    .filter(([path, text]) => text.includes(secret) && !(secret === "whsec_" && /^tmp\/tsx-[^/]+\//.test(path)))
    .map(([path]) => path);
}

/** Whether the store (where the secrets belong) holds `secret`: the scan reads the files where a copy would be. */
function storeHolds(secret: string): boolean {
  return readdirSync(store, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .some((entry) => readFileSync(join(entry.parentPath, entry.name), "latin1").includes(secret));
}

/** After each command, no file but the store holds a secret. The local store is written in the tool's own
 * process (scripts/local-kv.ts), so wrangler writes no log for it; the scan covers whatever would. */
function expectNothingLeft(command: string, secrets: string[] = []) {
  for (const secret of ["whsec_", ...secrets]) expect(filesHolding(secret), `${command} left ${secret}`).toEqual([]);
  expect(
    readdirSync(temp).filter((name) => name.startsWith("kv-")),
    `${command} left a temporary file`,
  ).toEqual([]);
}

const created: { key: string; keyId: string; webhookSecret: string }[] = [];

describe("the operator tools leave no webhook secret or personal data behind", () => {
  it("seed-dev", () => {
    npmRun("keys", "seed-dev");
    expectNothingLeft("seed-dev");
  });

  it("create shows the secret once and writes it nowhere else", () => {
    for (const name of ["revoked", "kept"]) {
      const shown = JSON.parse(
        npmRun("keys", "create", "--customer", "cus_secrets", "--environment", "test", "--name", name, "--json"),
      );
      expect(shown.webhookSecret).toMatch(/^whsec_/);
      created.push(shown);
    }
    expect(npmRun("keys", "create", "--customer", "cus_secrets", "--environment", "live")).toMatch(
      /Webhook signing secret: whsec_/,
    );
    expect(storeHolds(created[0]!.webhookSecret)).toBe(true);
    expectNothingLeft(
      "create",
      created.map((c) => c.webhookSecret),
    );
  });

  it("list and list --json show no secret", () => {
    for (const output of [npmRun("keys", "list"), npmRun("keys", "list", "--json")]) {
      expect(output).toContain(created[0]!.keyId);
      expect(output).not.toContain("whsec_");
    }
    expectNothingLeft(
      "list",
      created.map((c) => c.webhookSecret),
    );
  });

  it("revoke", () => {
    expect(npmRun("keys", "revoke", created[0]!.keyId)).not.toContain("whsec_");
    expectNothingLeft(
      "revoke",
      created.map((c) => c.webhookSecret),
    );
  });

  it("set-limits by key id", () => {
    expect(
      npmRun(
        "keys",
        "set-limits",
        created[1]!.keyId,
        "--endpoint-type",
        "contact_info_request",
        "--limit",
        "7",
        "--window",
        "60",
      ),
    ).not.toContain("whsec_");
    expectNothingLeft(
      "set-limits KEYID",
      created.map((c) => c.webhookSecret),
    );
  });

  it("set-limits by customer", () => {
    expect(
      npmRun(
        "keys",
        "set-limits",
        "--customer",
        "cus_secrets",
        "--environment",
        "test",
        "--endpoint-type",
        "rate_limits",
        "--limit",
        "9",
        "--window",
        "30",
      ),
    ).not.toContain("whsec_");
    expectNothingLeft(
      "set-limits --customer",
      created.map((c) => c.webhookSecret),
    );
  });

  it("set-mcp-allowance, then show: the allowance on the record, never the webhook secret", () => {
    const keyId = created[1]!.keyId;
    expect(npmRun("keys", "set-mcp-allowance", keyId, "--credits", "0")).toContain(
      `${keyId}: an MCP tool call may commit 0 credit(s)`,
    );
    const shown = npmRun("keys", "show", keyId);
    expect(shown).toContain("MCP allowance: 0 credits per tool call without asking");
    expect(shown).not.toContain("whsec_");
    expectNothingLeft(
      "set-mcp-allowance and show",
      created.map((c) => c.webhookSecret),
    );
    // Two runs of the key tool, each starting a local runtime: on two busy cores, over a minute each.
  }, 240_000);

  it("directory import", () => {
    expect(EMAILS.length).toBeGreaterThan(3);
    const output = npmRun("directory", "import", "directory/sample.csv");
    expect(output).toMatch(/Imported directory\/sample\.csv: \d+ row\(s\) accepted/);
    expect(storeHolds(EMAILS[0]!)).toBe(true);
    for (const email of EMAILS) expect(output).not.toContain(email);
    expectNothingLeft("directory import", EMAILS);
  });
});

describe("the tools still do their job", () => {
  it("a revoked key is refused; set-limits changed the kept key's limits", async () => {
    server = await startLocalServer({ prepare: async (state) => cpSync(store, state, { recursive: true }) });
    const call = (key: string) => fetch(`${server!.url}/v2/test/me/rate-limits`, { headers: { "x-api-key": key } });

    const refused = await call(created[0]!.key);
    expect(refused.status).toBe(401);
    expect((await refused.json<{ code: string }>()).code).toBe("invalid_api_key");

    const kept = await call(created[1]!.key);
    expect(kept.status).toBe(200);
    const limits = await kept.json<{ endpointType: string; limit: number; windowSeconds: number }[]>();
    expect(limits.find((l) => l.endpointType === "contact_info_request")).toMatchObject({
      limit: 7,
      windowSeconds: 60,
    });
    expect(limits.find((l) => l.endpointType === "rate_limits")).toMatchObject({ limit: 9, windowSeconds: 30 });
  });
});
