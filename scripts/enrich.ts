// npm run enrich -- INPUT [--out OUTPUT] [--estimate] [--environment test|live] [--base-url URL] [--api-key KEY]
// A CSV (or JSONL) of people in, the same rows with their best email and phone
// out, through the typed client in client/.
import { createHash } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  type BatchItem,
  type Client,
  createClient,
  type Environment,
  type Estimate,
  ProblemError,
  type Submitted,
} from "../client/src/index";
import { BASE_URL_HELP, DEFAULT_BASE_URL, isLoopback, resolveBaseUrl } from "./base-url";
import { CliError, readTextFile, runCli, usageError } from "./cli";
import { DEV_KEYS } from "./dev-keys";
import { type Progress, progressReporter } from "./enrich-progress";
import { csvLine, inputFormat, parseInput, RESULT_COLUMNS, resultCells } from "./enrich-rows";

// The API's default MAX_BATCH_ITEMS; a deployment with a lower one says so in its 413 (maxItems).
const BATCH_ITEMS = 10_000;
const ENVIRONMENTS: readonly Environment[] = ["test", "live"];

const USAGE = `usage: npm run enrich -- INPUT [--out OUTPUT] [--estimate] [--environment test|live] [--base-url URL] [--api-key KEY]
  INPUT              a .csv (RFC 4180, UTF-8 with or without BOM) or .jsonl file, one person a row, with some of the
                     columns externalId, firstName, lastName, fullName, companyName, companyDomain (a website URL is
                     fine), linkedinUrl, email, in any case and spacing, or a CRM export's names for them ("First Name",
                     "Company", "Website", "LinkedIn URL", "Email", "Record ID", …); other columns are carried through
  --out OUTPUT       the CSV to write (default: INPUT with .enriched.csv)
  --estimate         print what the file would make and cost at most, in credits, and submit nothing
  --environment ENV  test (the sandbox; the default) or live
  --base-url URL     ${BASE_URL_HELP}
  --api-key KEY      default: $CONTACT_INFO_API_KEY; on this machine (127.0.0.1, localhost), the local development key
Writes one row per input row, in order: the input's columns, then ${RESULT_COLUMNS.join(", ")}
(the most confident email and phone). Over ${BATCH_ITEMS} rows are sent as several batches. Running it again on
the same file within 24 h reuses the batches it created (Idempotency-Key), creating none.`;

interface Options {
  input: string;
  out: string;
  environment: Environment;
  baseUrl: string;
  apiKey: string;
  estimate: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string" },
      environment: { type: "string", default: "test" },
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      estimate: { type: "boolean", default: false },
    },
  });
  const [input, ...extra] = positionals;
  if (!input) throw usageError("give the INPUT file (.csv or .jsonl)");
  if (extra.length > 0) throw usageError(`one INPUT at a time; unexpected ${extra.join(" ")}`);
  if (!inputFormat(input)) throw usageError(`${input}: give a .csv or .jsonl (or .ndjson) file`);
  const environment = ENVIRONMENTS.find((name) => name === values.environment);
  if (!environment) throw usageError(`--environment is test or live, not ${values.environment}`);
  const baseUrl = resolveBaseUrl(values["base-url"]);
  const localKey = isLoopback(baseUrl) ? DEV_KEYS.find((key) => key.environment === environment)?.key : undefined;
  const apiKey = values["api-key"] ?? process.env.CONTACT_INFO_API_KEY ?? localKey;
  if (!apiKey) throw usageError(`give the API key for ${baseUrl} with --api-key or CONTACT_INFO_API_KEY`);
  const out = values.out ?? input.replace(/\.(csv|jsonl|ndjson)$/i, ".enriched.csv");
  if (out === input) throw usageError("--out must not be the INPUT file");
  return { input, out, environment, baseUrl, apiKey, estimate: values.estimate };
}

/** One line saying what to do about an error the API answered or a server that could not be reached; undefined for anything else. */
function explain(error: unknown, { baseUrl, environment }: Options): string | undefined {
  if (error instanceof ProblemError) {
    const { problem } = error;
    if (problem.status === 401)
      return `the API key was refused (${problem.code}); pass a valid ${environment} key with --api-key or CONTACT_INFO_API_KEY`;
    if (problem.code === "environment_mismatch")
      return `the API key is not a ${environment} key; pass --environment ${environment === "test" ? "live" : "test"} or a ${environment} key`;
    if (problem.status === 404)
      return `${baseUrl} answered 404 (${problem.code}); give the API's root as --base-url, such as ${DEFAULT_BASE_URL}`;
    if (problem.code === "unexpected_response")
      return `${baseUrl} answered ${problem.status} ${problem.title}, not as the contact-info API does; check --base-url or CONTACT_INFO_BASE_URL`;
    return `the API answered ${problem.status} ${problem.code}: ${problem.detail}`;
  }
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return `cannot reach ${baseUrl} (${cause?.code ?? cause?.message ?? "network error"}); start it with \`npm run dev\` or check --base-url or CONTACT_INFO_BASE_URL`;
  }
  return undefined;
}

interface Chunk {
  start: number;
  items: ReturnType<typeof parseInput>["items"];
}

const chunked = <T>(list: readonly T[], size: number): { start: number; items: T[] }[] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => ({ start: i * size, items: list.slice(i * size, (i + 1) * size) }));

/** Submits every chunk, one after another; the keys make a rerun of the same file answer the same batches. */
async function submitAll(
  client: Client,
  items: Chunk["items"],
  fileHash: string,
  note: (text: string) => void,
): Promise<{ chunk: Chunk; batch: Submitted }[]> {
  for (let size = BATCH_ITEMS; ; ) {
    const chunks = chunked(items, size);
    const submitted: { chunk: Chunk; batch: Submitted }[] = [];
    try {
      for (const [i, chunk] of chunks.entries()) {
        note(`submitting batch ${i + 1} of ${chunks.length}`);
        const idempotencyKey = `enrich-${fileHash}-${i + 1}-of-${chunks.length}`;
        submitted.push({ chunk, batch: await client.submit(chunk.items, { idempotencyKey }) });
      }
      return submitted;
    } catch (error) {
      const maxItems =
        error instanceof ProblemError && error.problem.code === "too_many_items" ? Number(error.problem.maxItems) : Number.NaN;
      if (submitted.length > 0 || !Number.isInteger(maxItems) || maxItems < 1 || maxItems >= size) throw error;
      size = maxItems;
    }
  }
}

async function enrich(options: Options): Promise<void> {
  const text = readTextFile(options.input);
  const input = parseInput(text, inputFormat(options.input)!);
  const fileHash = createHash("sha256").update(text).digest("hex").slice(0, 32);
  const reporter = progressReporter();
  const progress: Progress = { total: input.items.length, done: 0, found: 0, failed: 0 };
  const client = createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    environment: options.environment,
    onWait: ({ seconds, problem }) => reporter.note(`${problem.code}: waiting ${seconds} s as the server asked`, true),
  });
  const results: (Record<(typeof RESULT_COLUMNS)[number], string> | undefined)[] = new Array(input.items.length);
  const counted = { found: 0, notFound: 0, failed: 0 };
  const stop = new AbortController();
  try {
    const batches = await submitAll(client, input.items, fileHash, (text) => reporter.note(text));
    reporter.note("");
    const doneByBatch = batches.map(() => 0);
    const failedByBatch = batches.map(() => 0);
    const show = (force = false) => {
      progress.done = doneByBatch.reduce((a, b) => a + b, 0);
      progress.failed = failedByBatch.reduce((a, b) => a + b, 0);
      progress.found = counted.found;
      reporter.update(progress, force);
    };
    const record = (batchId: string, start: number, item: BatchItem) => {
      const row = start + item.index;
      if (row >= results.length || results[row] !== undefined) return;
      results[row] = resultCells(batchId, item);
      if (item.status === "failed") counted.failed++;
      else if (item.outcome === "found") counted.found++;
      else counted.notFound++;
    };
    await Promise.all(
      batches.map(async ({ chunk, batch }, i) => {
        try {
          await client.waitForBatch(batch.batchId, {
            signal: stop.signal,
            onProgress: (summary) => {
              doneByBatch[i] = summary.completedItems + summary.failedItems;
              failedByBatch[i] = summary.failedItems;
              show();
            },
          });
          for await (const item of client.items(batch.batchId, { signal: stop.signal })) record(batch.batchId, chunk.start, item);
          show();
        } catch (error) {
          stop.abort(error);
          throw error;
        }
      }),
    );
    show(true);
  } finally {
    reporter.finish();
  }
  const missing = results.filter((result) => result === undefined).length;
  if (missing > 0) throw new CliError(`${missing} row(s) got no result; run the same command again (it reuses the batches)`);

  const lines = [csvLine([...input.columns, ...RESULT_COLUMNS])];
  for (const [i, row] of input.rows.entries()) {
    lines.push(csvLine([...input.columns.map((column) => row[column] ?? ""), ...RESULT_COLUMNS.map((column) => results[i]![column])]));
  }
  const partial = `${options.out}.partial`;
  try {
    writeFileSync(partial, (input.bom ? "\uFEFF" : "") + lines.join(""));
    renameSync(partial, options.out);
  } catch (error) {
    throw new CliError(
      `cannot write ${options.out}: ${(error as { code?: string }).code ?? "error"}; check the path and its folder's permissions`,
    );
  }
  console.log(
    `enriched ${input.rows.length} rows: ${counted.found} found, ${counted.notFound} not found, ${counted.failed} failed -> ${options.out}`,
  );
}

/** --estimate: the API's estimate of each batch the file would make, summed; nothing is submitted. */
async function estimate(options: Options): Promise<void> {
  const input = parseInput(readTextFile(options.input), inputFormat(options.input)!);
  const client = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, environment: options.environment });
  const total: Estimate = { itemCount: 0, validItems: 0, invalidItems: 0, duplicateItems: 0, cachedItems: 0, maxCredits: 0 };
  for (const chunk of chunked(input.items, BATCH_ITEMS)) {
    const answer = await client.estimate(chunk.items);
    for (const key of Object.keys(total) as (keyof Estimate)[]) total[key] += answer[key];
  }
  console.log(
    `estimate for ${input.items.length} rows: ${total.validItems} valid (${total.duplicateItems} duplicates, ${total.cachedItems} cached), ${total.invalidItems} invalid; at most ${total.maxCredits} credits. Nothing was submitted.`,
  );
}

async function main(argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  try {
    await (options.estimate ? estimate(options) : enrich(options));
  } catch (error) {
    const line = explain(error, options);
    throw line === undefined ? error : new CliError(line);
  }
}

await runCli(USAGE, main);
