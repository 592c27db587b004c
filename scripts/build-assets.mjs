// wrangler.toml's [build]: public/openapi.json (scripts/openapi.ts) and the console page
// (scripts/build-console.mjs), skipped when neither they nor what they are built from changed since
// the last build. Every `wrangler dev` runs [build] before it starts: a black-box suite starts a
// dozen servers, and building again each time cost about 7 CPU-seconds a server (bench/NOTES.md,
// "CI time (issue 47)"); it also meant two servers starting at once rewrote public/app under each
// other (a flaky browser test). The check is every input's path, size and modification time (a
// file added, changed or deleted changes it), recorded only after a build that succeeded.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

// What the document and the page are built from: the sources, both scripts, and the installed packages.
const INPUTS = [
  "src",
  "console",
  "scripts/openapi.ts",
  "scripts/build-assets.mjs",
  "scripts/build-console.mjs",
  "package-lock.json",
  "node_modules/.package-lock.json",
];
const OUTPUTS = ["public/openapi.json", "public/app.html", "public/app/main.js", "public/_headers"];
// Outside public/, which wrangler serves as it is.
const STAMP = "node_modules/.cache/build-assets.json";

function fingerprint() {
  const seen = [];
  const visit = (path) => {
    if (!existsSync(path)) return seen.push(`${path} -`);
    const stat = statSync(path);
    if (!stat.isDirectory()) return seen.push(`${path} ${stat.size} ${stat.mtimeMs}`);
    for (const name of readdirSync(path).sort()) visit(join(path, name));
  };
  for (const input of INPUTS) visit(input);
  return seen.join("\n");
}

const before = fingerprint();
const built = existsSync(STAMP) && readFileSync(STAMP, "utf8") === before && OUTPUTS.every((out) => existsSync(out));
if (built) {
  console.log("public/ is up to date with src/ and console/ (scripts/build-assets.mjs)");
} else {
  execFileSync("npx", ["tsx", "scripts/openapi.ts", "public/openapi.json"], { stdio: "inherit" });
  execFileSync("node", ["scripts/build-console.mjs"], { stdio: "inherit" });
  mkdirSync(dirname(STAMP), { recursive: true });
  // What was read before the build: an input changed during it makes the next run build again.
  writeFileSync(STAMP, before);
}
