// npm run stats -- [--environment live|test] [--base-url URL] [--json]
// The operator's view of the data sources across every customer, last 30 days, and of each vendor's
// calls today against its daily ceiling (VENDOR_DAILY_CALLS): the admin API's GET /admin/sources
// (src/admin/source-stats.ts, vendor-ceilings.ts), with the deployment's ADMIN_TOKEN. The token is read
// from CONTACT_INFO_ADMIN_TOKEN (or, against this machine, the development token) and never printed.
import { parseArgs } from "node:util";
import * as z from "zod";
import { adminToken } from "./admin-client";
import { BASE_URL_HELP, resolveBaseUrl } from "./base-url";
import { CliError, fail, runCli } from "./cli";

const USAGE = `npm run stats -- [--environment live|test] [--base-url URL] [--json]

Every customer's traffic per data source over the last 30 days (UTC): items asked, hits, hit rate,
verified-valid rate, contacts reported wrong, credits refunded, median latency, rate-limit answers;
then each vendor's paid calls today (UTC) against its daily ceiling (VENDOR_DAILY_CALLS), across
every customer and environment.

  --environment  live (default) or test
  --base-url     ${BASE_URL_HELP}
  --json         print the admin API's answer as JSON

Needs CONTACT_INFO_ADMIN_TOKEN, the deployment's ADMIN_TOKEN secret (not needed against npm run dev).`;

// One KV list and one call per customer's account: generous, but not forever.
const STATS_TIMEOUT_MS = 60_000;

const share = z.number().nullable();
const statsSchema = z.object({
  environment: z.string(),
  from: z.string(),
  to: z.string(),
  customers: z.number(),
  unreadable: z.number(),
  sources: z.array(
    z.object({
      source: z.string(),
      calls: z.number(),
      hits: z.number(),
      hitRate: share,
      verifiedValidRate: share,
      reported: z.number(),
      creditsRefunded: z.number(),
      medianLatencyMs: z.number().nullable(),
      rateLimited: z.number(),
    }),
  ),
  vendorCeilings: z.array(
    z.object({ vendor: z.string(), day: z.string(), calls: z.number().nullable(), ceiling: z.number() }),
  ),
});
type Stats = z.infer<typeof statsSchema>;

const percent = (share: number | null) => (share === null ? "-" : `${(share * 100).toFixed(1)}%`);

/** Rows of cells as columns: the first left-aligned, the others right-aligned. */
function columns(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  return [line(header), ...rows.map(line)];
}

/** Each vendor's calls today against its VENDOR_DAILY_CALLS ceiling. */
function ceilingTable(ceilings: Stats["vendorCeilings"]): string {
  if (ceilings.length === 0) return "No vendor has a daily ceiling (VENDOR_DAILY_CALLS).";
  const rows = ceilings.map(({ vendor, calls, ceiling }) => [
    vendor,
    calls === null ? "?" : String(calls),
    String(ceiling),
    calls === null || ceiling === 0 ? "-" : percent(calls / ceiling),
    calls !== null && calls >= ceiling ? "at its ceiling: skipped until 00:00 UTC" : "",
  ]);
  const unread = ceilings.some(({ calls }) => calls === null) ? ["(?: its count could not be read: see the logs)"] : [];
  return [
    `Vendor calls today (${ceilings[0]!.day}, UTC), across every customer:`,
    ...columns(["vendor", "calls", "ceiling", "used", ""], rows).map((line) => line.trimEnd()),
    ...unread,
  ].join("\n");
}

function table(stats: Stats): string {
  const header = ["source", "calls", "hits", "hit rate", "valid rate", "reported", "refunded", "median ms", "429s"];
  const rows = stats.sources.map((card) => [
    card.source,
    String(card.calls),
    String(card.hits),
    percent(card.hitRate),
    percent(card.verifiedValidRate),
    String(card.reported),
    String(card.creditsRefunded),
    card.medianLatencyMs === null ? "-" : String(card.medianLatencyMs),
    String(card.rateLimited),
  ]);
  const unread = stats.unreadable > 0 ? ` (${stats.unreadable} of them could not be read: see the logs)` : "";
  const title = `${stats.environment}, ${stats.from} to ${stats.to}, ${stats.customers} customer(s)${unread}`;
  return [
    title,
    ...columns(header, rows),
    ...(rows.length === 0 ? ["(no source was asked)"] : []),
    "",
    ceilingTable(stats.vendorCeilings),
  ].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      environment: { type: "string", default: "live" },
      "base-url": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (values.environment !== "live" && values.environment !== "test") fail("--environment must be live or test");
  const baseUrl = resolveBaseUrl(values["base-url"]);
  const token =
    adminToken(baseUrl) ??
    fail(`no admin token for ${baseUrl}: set CONTACT_INFO_ADMIN_TOKEN to the deployment's ADMIN_TOKEN secret`);
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/admin/sources?environment=${values.environment}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(STATS_TIMEOUT_MS),
    });
  } catch {
    throw new CliError(`nothing answered at ${baseUrl}: is the service running there (npm run dev)?`);
  }
  if (response.status === 404)
    throw new CliError(
      `${baseUrl} refused the admin token (404: is ADMIN_TOKEN set there, and the same as CONTACT_INFO_ADMIN_TOKEN?)`,
    );
  if (!response.ok) throw new CliError(`${baseUrl} answered ${response.status}`);
  const parsed = statsSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new CliError(`${baseUrl} answered something that is not the admin API's source stats`);
  const stats = parsed.data;
  console.log(values.json ? JSON.stringify(stats, null, 2) : table(stats));
}

await runCli(USAGE, main);
