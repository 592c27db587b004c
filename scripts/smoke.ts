// npm run smoke -- [--base-url URL] [--api-key KEY] [--timeout SECONDS]
// Checks a deployment end to end, one line per check; exit 0 only if all pass.
import { parseArgs } from "node:util";
import {
  type ApiProblem,
  type BatchItem,
  type BatchSummary,
  createClient,
  ProblemError,
  type SubmitItem,
} from "../client/src/index";
import { BASE_URL_HELP, resolveBaseUrl } from "./base-url";
import { runCli, usageError } from "./cli";
import { DEV_KEYS } from "./dev-keys";

const USAGE = `usage: npm run smoke -- [--base-url URL] [--api-key KEY] [--timeout SECONDS]
  --base-url URL      ${BASE_URL_HELP}
  --api-key KEY       a ck_test_… key of that deployment (default: the local development test key)
  --timeout SECONDS   how long to wait for the sandbox batch (default 1200: deployed retries back off
                      for minutes before fail.test gives up; under \`npm run dev\` it takes about 15 s)`;

// The sandbox's reserved inputs (docs/api.md, "The test sandbox") and what each must end as. People of
// the smoke's own, none of the walk-through's (docs/api.md), so running one never changes what the other answers.
const SANDBOX_ITEMS: { input: SubmitItem; expect: (item: BatchItem) => string | undefined }[] = [
  {
    input: { firstName: "Stella", lastName: "Smoke", companyDomain: "smoke.example" },
    expect: (item) =>
      item.outcome === "found" && item.emails?.[0]?.address === "stella.smoke@smoke.example"
        ? undefined
        : "Stella Smoke should be found at stella.smoke@smoke.example",
  },
  {
    input: { fullName: "Smoke Nobody", companyDomain: "notfound.test" },
    expect: (item) =>
      item.status === "completed" && item.outcome === "not_found"
        ? undefined
        : "notfound.test should complete not_found",
  },
  {
    input: { fullName: "Smoke Flaky", companyDomain: "flaky.test" },
    expect: (item) => (item.outcome === "found" ? undefined : "flaky.test should be found on its retry"),
  },
  {
    input: { fullName: "Smoke Failing", companyDomain: "fail.test" },
    expect: (item) =>
      item.status === "failed" && item.error?.code === "processing_failed"
        ? undefined
        : "fail.test should fail with processing_failed",
  },
  {
    input: { fullName: "Smoke Down", companyDomain: "unavailable.test" },
    expect: (item) =>
      item.status === "failed" && item.error?.code === "source_unavailable"
        ? undefined
        : "unavailable.test should fail with source_unavailable, never not_found",
  },
  {
    input: { firstName: "Smoke" },
    expect: (item) =>
      item.status === "failed" && item.error?.code === "invalid_input"
        ? undefined
        : "an unidentifiable item should fail with invalid_input",
  },
];

class CheckFailed extends Error {}
const must = (condition: unknown, message: string): void => {
  if (!condition) throw new CheckFailed(message);
};

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { "base-url": { type: "string" }, "api-key": { type: "string" }, timeout: { type: "string" } },
  });
  if (positionals.length > 0) throw usageError(`unexpected ${positionals.join(" ")}`);
  const base = resolveBaseUrl(values["base-url"]);
  const key = values["api-key"] ?? DEV_KEYS[0].key;
  if (!key.startsWith("ck_test_"))
    throw usageError("--api-key must be a test key (ck_test_…): the smoke test submits to the sandbox");
  const timeoutSeconds = Number(values.timeout ?? 1200);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw usageError("--timeout must be a number of seconds");

  // The API through the typed client, as integrators call it; plain fetch only where the check is the HTTP itself.
  const client = createClient({ baseUrl: base, apiKey: key, environment: "test" });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, redirect: "manual", signal: AbortSignal.timeout(30_000) });

  let failures = 0;
  let batchId: string | undefined;
  const checks: [string, () => Promise<string>][] = [
    [
      "GET /healthz",
      async () => {
        const response = await call("/healthz");
        must(response.status === 200, `answered ${response.status}`);
        return `${response.status} ${JSON.stringify(await response.json())}`;
      },
    ],
    [
      "GET /openapi.json",
      async () => {
        const response = await call("/openapi.json");
        const document = (await response.json()) as { openapi?: string; paths?: object };
        must(
          response.status === 200 && document.openapi?.startsWith("3.1") && document.paths,
          "no OpenAPI 3.1 document",
        );
        return `${response.status} OpenAPI ${document.openapi}, ${Object.keys(document.paths ?? {}).length} paths`;
      },
    ],
    [
      "GET /docs",
      async () => {
        const response = await call("/docs");
        must(
          response.status === 200 && response.headers.get("content-type")?.includes("text/html"),
          `answered ${response.status} ${response.headers.get("content-type")}`,
        );
        return `${response.status} ${response.headers.get("content-type")}`;
      },
    ],
    [
      "no key is refused",
      async () => {
        const response = await call("/v2/test/me/rate-limits");
        const problem = (await response.json()) as ApiProblem;
        must(
          response.status === 401 &&
            problem.code === "missing_api_key" &&
            response.headers.get("content-type")?.includes("application/problem+json"),
          `answered ${response.status} ${problem.code}`,
        );
        return `401 ${problem.code}`;
      },
    ],
    [
      "submit a sandbox batch",
      async () => {
        const submitted = await client.submit(
          SANDBOX_ITEMS.map(({ input }) => input),
          { signal: AbortSignal.timeout(30_000) },
        );
        must(
          submitted.location?.endsWith(`/person/contact-info/${submitted.batchId}`),
          "no Location header for the batch",
        );
        batchId = submitted.batchId;
        return `202 batch ${batchId}`;
      },
    ],
    [
      "RateLimit fields",
      async () => {
        const response = await call("/v2/test/me/rate-limits", { headers: { "x-api-key": key } });
        await response.body?.cancel();
        const policy = response.headers.get("ratelimit-policy");
        const limit = response.headers.get("ratelimit");
        must(
          response.status === 200 && policy && limit,
          `answered ${response.status}, RateLimit-Policy ${policy}, RateLimit ${limit}`,
        );
        return `RateLimit-Policy: ${policy}; RateLimit: ${limit}`;
      },
    ],
    [
      "the batch completes as the sandbox promises",
      async () => {
        const id = batchId;
        if (!id) throw new CheckFailed("no batch was submitted");
        let last: BatchSummary | undefined;
        let lastProgress = Date.now();
        const onProgress = (batch: BatchSummary) => {
          last = batch;
          if (Date.now() - lastProgress < 15_000) return;
          console.error(
            `     … waiting: ${batch.completedItems + batch.failedItems} of ${batch.totalItems} items done`,
          );
          lastProgress = Date.now();
        };
        let done: BatchSummary;
        try {
          done = await client.waitForBatch(id, { onProgress, signal: AbortSignal.timeout(timeoutSeconds * 1000) });
        } catch (error) {
          if (!(error instanceof Error && error.name === "TimeoutError")) throw error;
          const progress = last ? ` (${last.completedItems + last.failedItems} of ${last.totalItems} done)` : "";
          throw new CheckFailed(`still ${last?.status ?? "unfinished"} after ${timeoutSeconds} s${progress}`);
        }
        const items: BatchItem[] = [];
        for await (const item of client.items(id)) items.push(item);
        const wrong = SANDBOX_ITEMS.map(({ expect }, index) =>
          items[index] ? expect(items[index]) : `item ${index} is missing`,
        ).filter(Boolean);
        must(wrong.length === 0, wrong.join("; "));
        return `completed: ${done.completedItems} completed, ${done.failedItems} failed, each as expected`;
      },
    ],
  ];

  console.log(`Smoke test of ${base}`);
  for (const [name, check] of checks) {
    try {
      console.log(`ok   ${name}: ${await check()}`);
    } catch (error) {
      failures++;
      const reason = error instanceof CheckFailed ? error.message : unreachable(error, base);
      console.log(`FAIL ${name}: ${reason}`);
      if (name === "GET /healthz" && !(error instanceof CheckFailed)) break;
    }
  }
  console.log(failures === 0 ? "All checks passed." : `${failures} check(s) failed.`);
  if (failures > 0) process.exitCode = 1;
}

function unreachable(error: unknown, base: string): string {
  if (error instanceof ProblemError) return `answered ${error.message}`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED")
    return `nothing answers at ${base} (is \`npm run dev\` running? or pass --base-url or CONTACT_INFO_BASE_URL)`;
  if (error instanceof Error && error.name === "TimeoutError") return "no answer within 30 s";
  const detail = cause?.code ?? cause?.message;
  return `${error instanceof Error ? error.message : String(error)}${detail ? ` (${detail})` : ""}`;
}

await runCli(USAGE, main);
