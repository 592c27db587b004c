// The console page's weight, checked in CI: what a browser loads to show /app (the
// HTML, the stylesheet, the entry script and the chunks it imports statically),
// gzipped, within budget. Chunks reached only through import() (the XLSX library)
// load when a user asks for them and are listed apart.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { CONSOLE_BUILD } from "./build-console.mjs";

const BUDGET_KIB = 150;
// Loaded only when a user reads or writes a workbook.
const ON_DEMAND = /node_modules\/(read-excel-file|write-excel-file)\//;
const KIB = 1024;

const result = await build({ ...CONSOLE_BUILD, write: false, metafile: true });
if (!result.outputFiles || !result.metafile)
  throw new Error("console budget: esbuild answered without its output files");
const files = new Map(result.outputFiles.map((file) => [file.path.slice(process.cwd().length + 1), file.contents]));
const outputs = result.metafile.outputs;

/** The entry and every chunk it imports statically, transitively. */
function loadedAtStart(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const link of outputs[path]?.imports ?? []) if (link.kind === "import-statement") visit(link.path);
  };
  visit(entry);
  return [...seen];
}

const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === "console/main.ts");
if (!entry) throw new Error("console budget: the build has no console/main.ts entry");
const initial = loadedAtStart(entry);
const lazy = Object.keys(outputs).filter((path) => path.endsWith(".js") && !initial.includes(path));
const gzip = (bytes: Uint8Array) => gzipSync(bytes).byteLength;
const page = [
  readFileSync("console/index.html"),
  readFileSync("console/console.css"),
  ...initial.map((path) => files.get(path)!),
];
const total = page.reduce((sum, bytes) => sum + gzip(bytes), 0) / KIB;

const eager = initial.flatMap((path) =>
  Object.keys(outputs[path]?.inputs ?? {}).filter((input) => ON_DEMAND.test(input)),
);
if (eager.length > 0) {
  console.error(`console page: the XLSX libraries must load only on demand (import()), but ${eager[0]} loads at start`);
  process.exit(1);
}
const fits = total <= BUDGET_KIB;
console.log(
  `${fits ? "ok  " : "OVER"} console page ${total.toFixed(2).padStart(7)} KiB gzip at load  (budget ${BUDGET_KIB} KiB): ${initial.join(", ")}`,
);
for (const path of lazy)
  console.log(`     loaded on demand: ${path} ${(gzip(files.get(path)!) / KIB).toFixed(2)} KiB gzip`);
if (!fits) process.exit(1);
