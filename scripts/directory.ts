// npm run directory -- import FILE.csv|FILE.jsonl [--local|--remote] [--dry-run]
import { extname } from "node:path";
import { parseArgs } from "node:util";
import type { DirectoryEntry } from "../src/enrichment/directory";
import { directoryWrites, parseDirectoryFile, type Rejection, toDirectoryEntry } from "../src/enrichment/directory-import";
import { readTextFile, runCli, usageError } from "./cli";
import { kvPutAll } from "./wrangler-kv";

const USAGE = `usage: npm run directory -- import FILE.csv|FILE.jsonl [--local | --remote] [--dry-run]
  --local            write to the local store that \`npm run dev\` reads (the default)
  --persist-to DIR   with --local: the state directory of a \`wrangler dev --persist-to DIR\`
  --remote           write to the deployed DIRECTORY namespace (after \`npx wrangler login\` and \`npm run deploy\`)
  --dry-run          validate and report only; write nothing
Columns: firstName, lastName, fullName, companyName, companyDomain, linkedinUrl, workEmail, personalEmail,
emailStatus, mobilePhone, workPhone, or a CRM export's names for them ("First Name", "Email", "Company", "Phone", "LinkedIn URL", …).`;
// wrangler kv bulk put takes at most 10,000 pairs per call.
const WRITES_PER_CALL = 10_000;
const FORMATS: Record<string, "csv" | "jsonl"> = { ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl" };

function main(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      local: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const [command, file, ...extra] = positionals;
  if (command !== "import") throw usageError(command ? `unknown command ${command}; the command is import` : "give a command: import FILE");
  if (!file) throw usageError("import needs a FILE (.csv or .jsonl)");
  if (extra.length > 0) throw usageError(`one FILE at a time; unexpected ${extra.join(" ")}`);
  const format = FORMATS[extname(file).toLowerCase()];
  if (!format) throw usageError(`${file}: give a .csv or .jsonl (or .ndjson) file`);
  if (values.local && values.remote) throw usageError("choose one of --local and --remote");
  if (values.remote && values["persist-to"]) throw usageError("--persist-to is for the local store; drop it with --remote");

  const parsed = parseDirectoryFile(readTextFile(file), format);
  const rejected: Rejection[] = [...parsed.rejected];
  const entries: DirectoryEntry[] = [];
  for (const { line, record } of parsed.rows) {
    const entry = toDirectoryEntry(record);
    if (typeof entry === "string") rejected.push({ line, reason: entry });
    else entries.push(entry);
  }

  const writes = directoryWrites(entries);
  const dryRun = values["dry-run"];
  if (!dryRun) {
    for (let start = 0; start < writes.length; start += WRITES_PER_CALL) {
      const chunk = writes.slice(start, start + WRITES_PER_CALL);
      kvPutAll(chunk, values.remote ? { target: "--remote" } : { target: "--local", persistTo: values["persist-to"] }, "DIRECTORY");
      if (writes.length > WRITES_PER_CALL) console.error(`  wrote ${start + chunk.length} of ${writes.length} KV entries`);
    }
  }
  console.log(
    `${dryRun ? "Checked" : "Imported"} ${file}: ${entries.length} row(s) accepted, ${rejected.length} rejected, ${writes.length} KV entries${dryRun ? " (dry run: nothing written)" : ""}.`,
  );
  for (const { line, reason } of rejected.sort((a, b) => a.line - b.line)) console.log(`  line ${line}: ${reason}`);
  if (entries.length === 0 && rejected.length > 0) process.exitCode = 1;
}

await runCli(USAGE, main);
