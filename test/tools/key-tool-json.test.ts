import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `npm run keys -- … --json` is read by scripts (`| jq`): its stdout is the JSON alone, also
// where a .dev.vars sits beside wrangler.toml (wrangler, reading the config, announces it).
// The tool runs in a folder of its own holding the project's wrangler.toml and a .dev.vars,
// as it would in a checkout with local secrets, with the project's node (node_modules/.bin).
const project = resolve(".");
const scratch = mkdtempSync(join(tmpdir(), "key-tool-json-"));
copyFileSync(join(project, "wrangler.toml"), join(scratch, "wrangler.toml"));
writeFileSync(join(scratch, ".dev.vars"), "HUNTER_API_KEY=local-development-only\n");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function keys(...args: string[]) {
  const bin = join(project, "node_modules", ".bin");
  const result = spawnSync(
    join(bin, "tsx"),
    [join(project, "scripts", "keys.ts"), ...args, "--persist-to", join(scratch, "state")],
    {
      cwd: scratch,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
      },
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return result;
}

describe("the key tool's --json", () => {
  it("prints only JSON on stdout when a .dev.vars exists, wrangler's notes on stderr", () => {
    const created = keys("create", "--customer", "json-customer", "--environment", "test", "--json");
    expect(created.stdout.trim().split("\n")).toHaveLength(1);
    const key = JSON.parse(created.stdout) as { key: string; keyId: string };
    expect(key.key).toMatch(/^ck_test_/);
    expect(created.stderr).toContain("Using secrets defined in .dev.vars");

    const listed = keys("list", "--json");
    expect((JSON.parse(listed.stdout) as { keyId: string }[]).map((record) => record.keyId)).toEqual([key.keyId]);
  });
});
