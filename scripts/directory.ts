// npm run directory -- import FILE.csv|FILE.xlsx|FILE.jsonl [--local|--remote] [--dry-run]
import { parseArgs } from "node:util";
import { readCsvBytes } from "../src/file-core/index";
import {
  DIRECTORY_COLUMNS,
  type DirectoryEntry,
  directoryRecords,
  directoryWrites,
  type Rejection,
  toDirectoryEntry,
} from "../src/tools-api";
import { readFileBytes, runCli, usageError } from "./cli";
import { delimiterFlag, encodingFlag, jsonlTable, sniffInput, xlsxTable } from "./file-input";
import { withKv } from "./kv-store";

const USAGE = `usage: npm run directory -- import FILE.csv|FILE.xlsx|FILE.jsonl [--local | --remote] [--dry-run]
  --local            write to the local store that \`npm run dev\` reads (the default)
  --persist-to DIR   with --local: the state directory of a \`wrangler dev --persist-to DIR\`
  --remote           write to the deployed DIRECTORY namespace (after \`npx wrangler login\` and \`npm run deploy\`)
  --dry-run          validate and report only; write nothing
  --encoding NAME    utf-8, utf-16le, utf-16be or windows-1252 (default: by BOM, else UTF-8, else Windows-1252)
  --delimiter D      comma, semicolon or tab (default: the one the header row uses)
  --sheet NAME       the .xlsx sheet to read (default: the first)
Columns: ${DIRECTORY_COLUMNS.join(", ")}, or a CRM export's names for them ("First Name", "Email", "Company",
"Phone", "LinkedIn URL", "Website", …: a HubSpot, Salesforce, Pipedrive, Apollo or Zoho export imports as it is).
Other columns are ignored (and listed). A malformed optional value (a phone not in +<country code> form) is left out
of its row, with a warning; a row is rejected only when what is left cannot be found or has no contact data.`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      local: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
      "dry-run": { type: "boolean", default: false },
      encoding: { type: "string" },
      delimiter: { type: "string" },
      sheet: { type: "string" },
    },
  });
  const [command, file, ...extra] = positionals;
  if (command !== "import")
    throw usageError(command ? `unknown command ${command}; the command is import` : "give a command: import FILE");
  if (!file) throw usageError("import needs a FILE (.csv, .xlsx or .jsonl)");
  if (extra.length > 0) throw usageError(`one FILE at a time; unexpected ${extra.join(" ")}`);
  if (values.local && values.remote) throw usageError("choose one of --local and --remote");
  if (values.remote && values["persist-to"])
    throw usageError("--persist-to is for the local store; drop it with --remote");

  const delimiter = delimiterFlag(values.delimiter);
  const sniffed = sniffInput(file);
  const kind = sniffed.kind;
  const encoding = encodingFlag(values.encoding) ?? sniffed.encoding;
  if (values.sheet !== undefined && kind !== "xlsx") throw usageError("--sheet is for an .xlsx FILE; drop it");

  const table =
    kind === "csv"
      ? readCsvBytes(readFileBytes(file), { encoding, delimiter })
      : kind === "xlsx"
        ? await xlsxTable(file, values.sheet)
        : jsonlTable(file);
  for (const notice of table.notices) console.log(`note: ${notice}`);
  const parsed = directoryRecords(table);
  if (parsed.ignored.length > 0)
    console.log(`ignored column(s) naming no directory field: ${parsed.ignored.join(", ")}`);
  const rejected: Rejection[] = [...parsed.rejected];
  const warned: Rejection[] = [];
  const entries: DirectoryEntry[] = [];
  for (const { line, record } of parsed.rows) {
    const warnings: string[] = [];
    const entry = toDirectoryEntry(record, warnings);
    if (typeof entry === "string") rejected.push({ line, reason: entry });
    else entries.push(entry);
    for (const reason of warnings) warned.push({ line, reason });
  }

  const writes = directoryWrites(entries);
  const dryRun = values["dry-run"];
  if (!dryRun) {
    const store = values.remote
      ? ({ target: "--remote" } as const)
      : ({ target: "--local", persistTo: values["persist-to"] } as const);
    await withKv(store, "DIRECTORY", (kv) => kv.putAll(writes));
  }
  console.log(
    `${dryRun ? "Checked" : "Imported"} ${file}: ${entries.length} row(s) accepted, ${rejected.length} rejected, ${writes.length} KV entries${dryRun ? " (dry run: nothing written)" : ""}.`,
  );
  for (const { line, reason } of rejected.sort((a, b) => a.line - b.line)) console.log(`  line ${line}: ${reason}`);
  for (const { line, reason } of warned) console.log(`  line ${line} (imported): ${reason}`);
  if (entries.length === 0 && rejected.length > 0) process.exitCode = 1;
}

await runCli(USAGE, main);
