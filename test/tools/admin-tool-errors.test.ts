import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runTool } from "../blackbox-helpers";

// The operator tools as an operator runs them: each expected mistake ends in one
// line on stderr saying what to do, a non-zero exit and no stack trace. Each test runs
// its own commands, so the tests run at once (most of a run is starting node and tsx).
const scratch = mkdtempSync(join(tmpdir(), "admin-tools-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(script: "keys" | "directory", ...args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // A home without a Cloudflare login, whatever the machine running the tests has.
    XDG_CONFIG_HOME: join(scratch, "config"),
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
  };
  delete env.CLOUDFLARE_API_TOKEN;
  delete env.CLOUDFLARE_API_KEY;
  delete env.DEBUG;
  const result = await runTool("npx", ["tsx", `scripts/${script}.ts`, ...args], { env, timeoutMs: 60_000 });
  // npx's own notices (npm warn …) are not the tool's output.
  const stderr = result.stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
  return { status: result.status, stdout: result.stdout, stderr };
}

function expectOneLineError(result: Awaited<ReturnType<typeof run>>, fix: RegExp) {
  expect(result.status).not.toBe(0);
  expect(result.stderr).toHaveLength(1);
  expect(result.stderr[0]).toMatch(/^error: /);
  expect(result.stderr[0]).toMatch(fix);
  expect(`${result.stdout}\n${result.stderr.join("\n")}`).not.toMatch(/^\s+at |node:internal|ENOENT:|TypeError/m);
}

describe.concurrent("npm run directory", () => {
  it("prints its usage for --help", async () => {
    const result = await run("directory", "--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("usage: npm run directory -- import");
  });

  it("says the file is missing", async () => {
    expectOneLineError(
      await run("directory", "import", join(scratch, "missing.csv")),
      /cannot read .*missing\.csv: no such file; check the path/,
    );
  });

  it("says a path cannot be read as a file", async () => {
    const folder = join(scratch, "folder.csv");
    mkdirSync(folder);
    expectOneLineError(
      await run("directory", "import", folder),
      /cannot read .*folder\.csv: it is a directory; give a file/,
    );
  });

  it("names an unknown flag", async () => {
    expectOneLineError(
      await run("directory", "import", "directory/sample.csv", "--bogus"),
      /unknown option --bogus \(see --help\)/,
    );
  });

  it("says how to log in for --remote", async () => {
    expectOneLineError(
      await run("directory", "import", "directory/sample.csv", "--remote"),
      /not logged in to Cloudflare: run `npx wrangler login`/,
    );
  });
});

describe.concurrent("npm run keys", () => {
  it("prints its usage for --help", async () => {
    const result = await run("keys", "--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("usage: npm run keys -- <command>");
  });

  it("says how to log in for --remote", async () => {
    expectOneLineError(await run("keys", "list", "--remote"), /not logged in to Cloudflare: run `npx wrangler login`/);
  });

  it("says a key id is unknown and how to list them", async () => {
    expectOneLineError(
      await run("keys", "revoke", "key_doesnotexist"),
      /no key key_doesnotexist in the local store; `npm run keys -- list` shows the ids/,
    );
  });

  it("names an unknown flag and an unknown command", async () => {
    expectOneLineError(await run("keys", "list", "--verbose"), /unknown option --verbose/);
    expectOneLineError(await run("keys", "frobnicate"), /unknown command frobnicate/);
  });
});
