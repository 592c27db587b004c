// npm run enrich -- INPUT [--out OUTPUT] [options]
// A spreadsheet of people in (CSV, XLSX or JSONL), the same rows with their best
// email and phone out, through the typed client in client/ and the file core in
// src/file-core/. Three streaming passes: validate, send, write.
import { parseArgs } from "node:util";
import { createClient, type Environment } from "../client/src/index";
import {
  alreadyEnriched,
  BATCH_ITEMS,
  describeMapping,
  type MappingOverride,
  notSentTotal,
  notSentWhy,
  parseOverride,
  RESULT_FIELDS,
  RESULT_PREFIX,
  tallyLine,
} from "../src/file-core/index";
import { explain } from "./api-errors";
import { BASE_URL_HELP, isLoopback, resolveBaseUrl } from "./base-url";
import { CliError, runCli, usageError } from "./cli";
import { DEV_KEYS } from "./dev-keys";
import { writeOutput } from "./enrich-output";
import { type Checked, openSource, type Source, validate } from "./enrich-passes";
import { progressReporter } from "./enrich-progress";
import { estimate, sendAndWait } from "./enrich-send";
import { delimiterFlag, encodingFlag, type InputKind, sniffInput } from "./file-input";

const ENVIRONMENTS: readonly Environment[] = ["test", "live"];
// Bad rows named on the command line before "…".
const BAD_ROWS_SHOWN = 5;

const USAGE = `usage: npm run enrich -- INPUT [--out OUTPUT] [options]
  INPUT              a .csv (also .tsv, .txt), .xlsx or .jsonl file, a header row then one person a row. Columns are
                     matched to the API's fields by name: ours (firstName, lastName, fullName, companyName,
                     companyDomain, linkedinUrl, email, externalId) or an export's ("First Name", "Company / Account",
                     "Website", "Person Linkedin Url", "Email", …) from HubSpot, Salesforce, Pipedrive, Apollo, LinkedIn,
                     Zoho; the mapping is printed before anything is sent. Every column is carried through.
  --out OUTPUT       the file to write, .csv (UTF-8 with BOM) or .xlsx (default: INPUT with .enriched.csv)
  --map FIELD=COLUMN feed FIELD from the column named COLUMN (repeatable); FIELD= maps nothing to FIELD
  --encoding NAME    utf-8, utf-16le, utf-16be or windows-1252 (default: by BOM, else UTF-8, else Windows-1252)
  --delimiter D      comma, semicolon or tab (default: the one the header row uses)
  --sheet NAME       the .xlsx sheet to read (default: the first)
  --skip-bad-rows    leave out rows that cannot be read (an unclosed quote…) instead of stopping
  --estimate         print what the file would make and cost at most, in credits, and submit nothing
  --environment ENV  test (the sandbox; the default) or live
  --base-url URL     ${BASE_URL_HELP}
  --api-key KEY      default: $CONTACT_INFO_API_KEY; on this machine (127.0.0.1, localhost), the local development key
Writes one row per input row, in order, blank rows too: the input's cells as read, then ${RESULT_FIELDS.map((field) => RESULT_PREFIX + field).join(", ")}
(a name the input already has gets _2, _3, …). A cell a spreadsheet would run as a formula (= @ tab CR, or + - not
followed by a plain number) gets a leading ' in a CSV; phones such as +15125550153 and signed numbers are written as
they are (for re-import into a CRM, --out FILE.xlsx writes every cell as text). A row with a malformed email or
LinkedIn URL is sent without it (enriched_warnings says so); a blank row, or one that names no one, is not sent
(enriched_status not_sent, enriched_error_message says why). Over ${BATCH_ITEMS} rows go as several batches; the same
rows sent again within 24 h, from here or the console page, answer the batches made then (Idempotency-Key): no new
batch, no new credits.`;

interface Options {
  input: string;
  kind: InputKind;
  out: string;
  environment: Environment;
  baseUrl: string;
  apiKey: string;
  overrides: MappingOverride[];
  encoding: ReturnType<typeof encodingFlag>;
  delimiter: ReturnType<typeof delimiterFlag>;
  sheet?: string;
  skipBadRows: boolean;
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
      map: { type: "string", multiple: true, default: [] },
      encoding: { type: "string" },
      delimiter: { type: "string" },
      sheet: { type: "string" },
      "skip-bad-rows": { type: "boolean", default: false },
      estimate: { type: "boolean", default: false },
    },
  });
  const [input, ...extra] = positionals;
  if (!input) throw usageError("give the INPUT file (.csv, .xlsx or .jsonl)");
  if (extra.length > 0) throw usageError(`one INPUT at a time; unexpected ${extra.join(" ")}`);
  const sniffed = sniffInput(input);
  if (values.sheet !== undefined && sniffed.kind !== "xlsx") throw usageError("--sheet is for an .xlsx INPUT; drop it");
  const environment = ENVIRONMENTS.find((name) => name === values.environment);
  if (!environment) throw usageError(`--environment is test or live, not ${values.environment}`);
  const overrides = values.map.map((text) => {
    const override = parseOverride(text);
    if (!override)
      throw usageError(`--map takes FIELD=COLUMN, such as --map "companyName=Company / Account"; not ${text}`);
    return override;
  });
  // UTF-16 without a byte order mark is found by its bytes; --encoding still wins.
  const encoding = encodingFlag(values.encoding) ?? sniffed.encoding;
  const delimiter = delimiterFlag(values.delimiter);
  const out = values.out ?? `${input.replace(/\.[^./\\]+$/, "")}.enriched.csv`;
  if (!/\.(csv|xlsx)$/i.test(out)) throw usageError(`--out ends in .csv or .xlsx, not ${out}`);
  if (out === input) throw usageError("--out must not be the INPUT file");
  const baseUrl = resolveBaseUrl(values["base-url"]);
  const localKey = isLoopback(baseUrl) ? DEV_KEYS.find((key) => key.environment === environment)?.key : undefined;
  const apiKey = values["api-key"] ?? process.env.CONTACT_INFO_API_KEY ?? localKey;
  if (!apiKey) throw usageError(`give the API key for ${baseUrl} with --api-key or CONTACT_INFO_API_KEY`);
  return {
    input,
    kind: sniffed.kind,
    out,
    environment,
    baseUrl,
    apiKey,
    overrides,
    encoding,
    delimiter,
    sheet: values.sheet,
    skipBadRows: values["skip-bad-rows"],
    estimate: values.estimate,
  };
}

/** What pass 1 found, for the user, before anything is sent; a bad row stops the run unless --skip-bad-rows. */
function report(source: Source, checked: Checked, options: Options): void {
  for (const notice of source.notices) console.log(`note: ${notice}`);
  if (Object.keys(checked.mapping).length === 0)
    throw new CliError(
      `no column names a person; name one with --map, e.g. --map "email=E-Mail" (fields: externalId, firstName, lastName, fullName, companyName, companyDomain, linkedinUrl, email)`,
    );
  const bad = checked.badRows;
  if (bad.length > 0) {
    const shown = bad.slice(0, BAD_ROWS_SHOWN).map(({ line, problem }) => `line ${line}: ${problem}`);
    const more = bad.length > BAD_ROWS_SHOWN ? `; and ${bad.length - BAD_ROWS_SHOWN} more` : "";
    if (!options.skipBadRows)
      throw new CliError(
        `${bad.length} row(s) cannot be read (${shown.join("; ")}${more}); fix the file, or pass --skip-bad-rows to leave them out; nothing was sent`,
      );
    console.log(`skipping ${bad.length} row(s) that cannot be read: ${shown.join("; ")}${more}`);
  }
  console.log("columns:");
  for (const line of describeMapping(checked.header, checked.mapping)) console.log(`  ${line}`);
  const warned = checked.warned > 0 ? ` (${checked.warned} with a value left out, see enriched_warnings)` : "";
  const tally = { found: 0, notFound: 0, failed: 0, suppressed: 0, notSent: checked.notSent };
  const notSent = notSentTotal(tally);
  console.log(
    `${checked.rows} rows: ${checked.valid} to send${warned}${notSent > 0 ? `, ${notSent} not sent (${notSentWhy(tally)})` : ""}`,
  );
  if (checked.rows === 0) throw new CliError("the file has no rows; give one row per person");
}

async function enrich(options: Options): Promise<void> {
  const source = await openSource(options.input, options.kind, options);
  const checked = await validate(source, options.overrides);
  report(source, checked, options);
  if (options.estimate) {
    await estimate(
      createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, environment: options.environment }),
      source,
      checked,
    );
    return;
  }

  const reporter = progressReporter();
  const client = createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    environment: options.environment,
    onWait: ({ seconds, problem }) => reporter.note(`${problem.code}: waiting ${seconds} s as the server asked`, true),
  });
  const { batchIds, creditsCharged, newCredits, repeatOf } = await sendAndWait(
    client,
    source,
    checked,
    reporter,
  ).finally(() => reporter.finish());
  const delimiter = source.kind === "csv" ? (source.delimiter ?? ",") : ",";
  const counted = await writeOutput(source, checked, { out: options.out, delimiter, client, batchIds });
  const rows = `${checked.rows} rows: ${tallyLine(counted)}`;
  console.log(
    repeatOf === undefined
      ? `enriched ${rows}; ${newCredits} credits charged -> ${options.out}`
      : `${alreadyEnriched(repeatOf, creditsCharged)} ${rows} -> ${options.out}`,
  );
}

async function main(argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  try {
    await enrich(options);
  } catch (error) {
    const line = explain(error, options);
    throw line === undefined ? error : new CliError(line);
  }
}

await runCli(USAGE, main);
