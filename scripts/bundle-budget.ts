// The Worker's size budget, checked in CI after `npm run build`: every cold start at
// every edge location pays for the bundle. Sizes are counted as wrangler counts its
// "Total Upload": the modules in dist/ (not the source map, which is uploaded apart
// and never loaded by the isolate), and the gzip of them concatenated. The esbuild
// metafile the build writes beside them says which packages and files take the room.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

// The sizes stand for a startup cost, measured by bench/startup.ts: a change that grows the bundle past
// them has its startup measured again, the budget restated from the measurement, and the numbers kept in
// bench/NOTES.md ("Startup"), rather than the budget raised silently.
const BUDGET_KIB = { upload: 900, gzip: 270 };
const DIST = "dist";
const METAFILE = "meta.json";
const KIB = 1024;

interface Metafile {
  outputs: Record<string, { inputs?: Record<string, { bytesInOutput: number }> }>;
}

/** Bytes in the bundle per npm package (or per src/ folder), largest first. */
function contributors(metafile: Metafile): [string, number][] {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [file, input] of Object.entries(output.inputs ?? {})) {
      const owner = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? file.split("/").slice(0, 2).join("/");
      bytes.set(owner, (bytes.get(owner) ?? 0) + input.bytesInOutput);
    }
  }
  return [...bytes].sort((a, b) => b[1] - a[1]);
}

const modules = readdirSync(DIST)
  .filter((name) => !name.endsWith(".map") && name !== "README.md" && name !== METAFILE)
  .sort();
if (!modules.includes("index.js")) {
  console.error(`bundle budget: no ${DIST}/index.js; run \`npm run build\` first`);
  process.exit(1);
}
const content = Buffer.concat(modules.map((name) => readFileSync(join(DIST, name))));
const sizes = { upload: content.byteLength / KIB, gzip: gzipSync(content).byteLength / KIB };

let over = false;
for (const measure of ["upload", "gzip"] as const) {
  const fits = sizes[measure] <= BUDGET_KIB[measure];
  over ||= !fits;
  console.log(
    `${fits ? "ok  " : "OVER"} ${measure.padEnd(6)} ${sizes[measure].toFixed(2).padStart(7)} KiB  (budget ${BUDGET_KIB[measure]} KiB)`,
  );
}
console.log(`modules: ${modules.join(", ")}`);
const metafile = join(DIST, METAFILE);
if (existsSync(metafile)) {
  console.log("largest contributors (bytes in the bundle):");
  for (const [owner, bytes] of contributors(JSON.parse(readFileSync(metafile, "utf8")) as Metafile).slice(0, 10)) {
    console.log(`  ${(bytes / KIB).toFixed(1).padStart(7)} KiB  ${owner}`);
  }
}
if (over) {
  console.error(`bundle budget exceeded: ${metafile} can be opened in https://esbuild.github.io/analyze/`);
  process.exit(1);
}
