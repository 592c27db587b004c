import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The operator tools as an operator runs them: each expected mistake ends in one
// line on stderr saying what to do, a non-zero exit and no stack trace.
const scratch = mkdtempSync(join(tmpdir(), "admin-tools-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(script: "keys" | "directory", ...args: string[]) {
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
  const result = spawnSync("npx", ["tsx", `scripts/${script}.ts`, ...args], {
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  // npx's own notices (npm warn …) are not the tool's output.
  const stderr = result.stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
  return { status: result.status, stdout: result.stdout, stderr };
}

function expectOneLineError(result: ReturnType<typeof run>, fix: RegExp) {
  expect(result.status).not.toBe(0);
  expect(result.stderr).toHaveLength(1);
  expect(result.stderr[0]).toMatch(/^error: /);
  expect(result.stderr[0]).toMatch(fix);
  expect(`${result.stdout}\n${result.stderr.join("\n")}`).not.toMatch(/^\s+at |node:internal|ENOENT:|TypeError/m);
}

describe("npm run directory", () => {
  it("prints its usage for --help", () => {
    const result = run("directory", "--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("usage: npm run directory -- import");
  });

  it("says the file is missing", () => {
    expectOneLineError(
      run("directory", "import", join(scratch, "missing.csv")),
      /cannot read .*missing\.csv: no such file; check the path/,
    );
  });

  it("says a path cannot be read as a file", () => {
    const folder = join(scratch, "folder.csv");
    mkdirSync(folder);
    expectOneLineError(run("directory", "import", folder), /cannot read .*folder\.csv: it is a directory; give a file/);
  });

  it("names an unknown flag", () => {
    expectOneLineError(run("directory", "import", "directory/sample.csv", "--bogus"), /unknown option --bogus \(see --help\)/);
  });

  it("says how to log in for --remote", () => {
    expectOneLineError(
      run("directory", "import", "directory/sample.csv", "--remote"),
      /not logged in to Cloudflare: run `npx wrangler login`/,
    );
  });
});

describe("npm run keys", () => {
  it("prints its usage for --help", () => {
    const result = run("keys", "--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("usage: npm run keys -- <command>");
  });

  it("says how to log in for --remote", () => {
    expectOneLineError(run("keys", "list", "--remote"), /not logged in to Cloudflare: run `npx wrangler login`/);
  });

  it("says a key id is unknown and how to list them", () => {
    expectOneLineError(
      run("keys", "revoke", "key_doesnotexist"),
      /no key key_doesnotexist in the local store; `npm run keys -- list` shows the ids/,
    );
  });

  it("names an unknown flag and an unknown command", () => {
    expectOneLineError(run("keys", "list", "--verbose"), /unknown option --verbose/);
    expectOneLineError(run("keys", "frobnicate"), /unknown command frobnicate/);
  });
});
