// npm run directory -- import FILE.csv|FILE.jsonl [--local|--remote] [--dry-run]
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parseArgs } from "node:util";
import { directoryWrites, parseDirectoryFile, type Rejection, toDirectoryEntry } from "../src/enrichment/directory-import";
import type { DirectoryEntry } from "../src/enrichment/directory";
import { kvPutAll } from "./wrangler-kv";

const USAGE = "usage: npm run directory -- import FILE.csv|FILE.jsonl [--local | --remote] [--dry-run]";
// wrangler kv bulk put takes at most 10,000 pairs per call.
const WRITES_PER_CALL = 10_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    local: { type: "boolean", default: false },
    remote: { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
  },
});
const [command, file] = positionals;
const format = file && { ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl" }[extname(file).toLowerCase()];
if (command !== "import" || !file || !format || (values.local && values.remote)) {
  console.error(USAGE);
  process.exit(2);
}

const parsed = parseDirectoryFile(readFileSync(file, "utf8"), format as "csv" | "jsonl");
const rejected: Rejection[] = [...parsed.rejected];
const entries: DirectoryEntry[] = [];
for (const { line, record } of parsed.rows) {
  const entry = toDirectoryEntry(record);
  if (typeof entry === "string") rejected.push({ line, reason: entry });
  else entries.push(entry);
}

const writes = directoryWrites(entries);
if (!values["dry-run"]) {
  for (let start = 0; start < writes.length; start += WRITES_PER_CALL) {
    kvPutAll(writes.slice(start, start + WRITES_PER_CALL), values.remote ? "--remote" : "--local", "DIRECTORY");
  }
}
console.log(`${values["dry-run"] ? "Checked" : "Imported"} ${file}: ${entries.length} row(s) accepted, ${rejected.length} rejected, ${writes.length} KV entries${values["dry-run"] ? " (dry run: nothing written)" : ""}.`);
for (const { line, reason } of rejected.sort((a, b) => a.line - b.line)) console.log(`  line ${line}: ${reason}`);
process.exit(entries.length === 0 && rejected.length > 0 ? 1 : 0);
