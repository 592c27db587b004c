import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientTestServer } from "./server";

// The client as someone else installs it: `npm pack` of client/, installed into an empty
// project that type-checks with moduleResolution nodenext under --strict (TypeScript 5, the
// client workspace's), then run by plain Node against `wrangler dev`.
const ROOT = resolve(".");
const TSC = join(ROOT, "client/node_modules/.bin/tsc");

const PROGRAM = `import { createClient, ProblemError, type BatchSummary } from "contact-info-batch-client";

const client = createClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
const submitted = await client.submit([{ firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" }]);
const done: BatchSummary = await client.waitForBatch(submitted.batchId, { intervalMs: 200 });
let problem = "";
try {
  await client.submit([]);
} catch (error) {
  if (error instanceof ProblemError) problem = error.problem.code;
}
console.log(JSON.stringify({ status: done.status, completedItems: done.completedItems, problem }));
`;

// The same from a CommonJS project (no "type": "module"): TypeScript compiles the import to require(),
// which takes the package's "require" export (its CommonJS build), under Node 20 and Node 22.
const COMMONJS_PROGRAM = `import { createClient, ProblemError } from "contact-info-batch-client";

async function main(): Promise<void> {
  const client = createClient({ baseUrl: process.env.BASE_URL!, apiKey: process.env.API_KEY! });
  const submitted = await client.submit([{ firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" }]);
  const done = await client.waitForBatch(submitted.batchId, { intervalMs: 200 });
  let problem = "";
  try {
    await client.submit([]);
  } catch (error) {
    if (error instanceof ProblemError) problem = error.problem.code;
  }
  console.log(JSON.stringify({ status: done.status, completedItems: done.completedItems, problem, commonjs: typeof require === "function" }));
}
void main();
`;
const NODES = { "Node 20": "/usr/bin/node", "Node 22": join(ROOT, "node_modules/node/bin/node") };

const running = clientTestServer();
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "client-install-"));
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the packed client", () => {
  it("installs into an empty project, type-checks with nodenext under --strict, and runs against the API", () => {
    execFileSync("npm", ["pack", "--workspace", "client", "--pack-destination", project, "--silent"], {
      cwd: ROOT,
      stdio: "pipe",
    });
    const tarball = readdirSync(project).find((name) => name.endsWith(".tgz"));
    expect(tarball).toMatch(/^contact-info-batch-client-.*\.tgz$/);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "uses-the-client", private: true, type: "module" }),
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          outDir: "out",
          types: ["node"],
        },
        include: ["main.ts"],
      }),
    );
    writeFileSync(join(project, "main.ts"), PROGRAM);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `./${tarball}`, "@types/node@22"], {
      cwd: project,
      stdio: "pipe",
    });

    // skipLibCheck stays off: the client's own declarations are checked too.
    execFileSync(TSC, ["-p", ".", "--strict"], { cwd: project, stdio: "pipe" });
    const output = execFileSync("node", ["out/main.js"], {
      cwd: project,
      env: { ...process.env, BASE_URL: running.server.url, API_KEY: running.key },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(output)).toEqual({ status: "completed", completedItems: 1, problem: "invalid_request" });
  }, 240_000);

  it("works from a CommonJS project too: type-checks with nodenext, then require()s the CommonJS build under Node 20 and 22", () => {
    const cjs = join(project, "commonjs");
    mkdirSync(cjs);
    execFileSync("npm", ["pack", "--workspace", "client", "--pack-destination", cjs, "--silent"], {
      cwd: ROOT,
      stdio: "pipe",
    });
    const tarball = readdirSync(cjs).find((name) => name.endsWith(".tgz"))!;
    writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "uses-the-client-from-commonjs", private: true }));
    writeFileSync(
      join(cjs, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          outDir: "out",
          types: ["node"],
        },
        include: ["main.ts"],
      }),
    );
    writeFileSync(join(cjs, "main.ts"), COMMONJS_PROGRAM);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `./${tarball}`, "@types/node@22"], {
      cwd: cjs,
      stdio: "pipe",
    });
    execFileSync(TSC, ["-p", ".", "--strict"], { cwd: cjs, stdio: "pipe" });
    expect(readFileSync(join(cjs, "out/main.js"), "utf8")).toContain('require("contact-info-batch-client")');
    for (const [name, node] of Object.entries(NODES)) {
      expect(execFileSync(node, ["--version"], { encoding: "utf8" }), name).toMatch(
        name === "Node 20" ? /^v20\./ : /^v22\./,
      );
      const output = execFileSync(node, ["out/main.js"], {
        cwd: cjs,
        env: { ...process.env, BASE_URL: running.server.url, API_KEY: running.key },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(JSON.parse(output), name).toEqual({
        status: "completed",
        completedItems: 1,
        problem: "invalid_request",
        commonjs: true,
      });
    }
  }, 240_000);
});
