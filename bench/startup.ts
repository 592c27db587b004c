// The Worker's startup cost: what loading the bundle costs before its first answer. Two measures,
// bundles taken in turns, round after round, beside an empty module (the runtime's own cost):
// - cpu: CPU time V8 spends parsing, compiling and evaluating the bundle's top level, in a fresh Node
//   process each time (`cloudflare:workers` stubbed: the bundle's top level only defines classes from it);
//   CPU time, not wall time, so other load on the machine blurs it less;
// - workerd: wall time from a new workerd (Miniflare) to the bundle's first answer (a path no route
//   serves: routing only), the runtime's start-up included.
//   npx tsx bench/startup.ts dist/index.js [other/index.js …] [--rounds 15]
//   BENCH_SMOKE=1 npm run bench:startup: one round of dist/index.js, which `npm run build` writes
// The bundle budget (scripts/bundle-budget.ts) is stated from these numbers (bench/NOTES.md).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { SMOKE, sized } from "./smoke";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : sized(15, 1);
const given = args.filter((arg, i) => !arg.startsWith("--") && i !== roundsAt + 1);
// A smoke (BENCH_SMOKE=1; this benchmark writes no results either way) measures the build `npm run build` made.
const bundles = given.length === 0 && SMOKE ? ["dist/index.js"] : given;
if (bundles.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  console.error("usage: npx tsx bench/startup.ts <bundle.js> [more bundles] [--rounds N]");
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), "startup-"));
const empty = join(work, "empty.js");
writeFileSync(empty, 'export default { fetch: () => new Response("ok") };\n');
writeFileSync(
  join(work, "cf-stub.mjs"),
  // DurableObject for ours, WorkerEntrypoint for the OAuth provider's.
  "export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\nexport class WorkerEntrypoint extends DurableObject {}\n",
);
writeFileSync(
  join(work, "measure.mjs"),
  "const c0 = process.cpuUsage(); await import(process.argv[2]); const c = process.cpuUsage(c0); console.log((c.user + c.system) / 1000);\n",
);
// Each bundle as Node loads it: its one import from the runtime pointed at the stub.
const forNode = new Map(
  [empty, ...bundles].map((script, i) => {
    const copy = join(work, `${i}-${basename(script, ".js")}.mjs`);
    if (script === empty) copyFileSync(script, copy);
    else writeFileSync(copy, readFileSync(script, "utf8").replaceAll('"cloudflare:workers"', '"./cf-stub.mjs"'));
    return [script, copy];
  }),
);

const cpuOnce = (script: string) =>
  Number(execFileSync(process.execPath, [join(work, "measure.mjs"), forNode.get(script)!], { encoding: "utf8" }));

async function workerdOnce(scriptPath: string): Promise<number> {
  const started = performance.now();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      scriptPath,
      modulesRoot: dirname(scriptPath),
      compatibilityDate: "2026-11-01",
      compatibilityFlags: ["nodejs_compat"],
    }),
  );
  try {
    await (await mf.dispatchFetch("http://localhost/startup-probe")).arrayBuffer();
    return performance.now() - started;
  } finally {
    await mf.dispose();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const scripts = [empty, ...bundles];
const cpu = new Map<string, number[]>(scripts.map((script) => [script, []]));
const wall = new Map<string, number[]>(scripts.map((script) => [script, []]));
// One warm-up turn each (the first runtime of a process pays for loading workerd's binary).
for (const script of scripts) await workerdOnce(script);
for (let round = 0; round < rounds; round++) {
  for (const script of scripts) {
    cpu.get(script)!.push(cpuOnce(script));
    wall.get(script)!.push(await workerdOnce(script));
  }
}
console.log(`${rounds} rounds, medians; the second figure of each is above the empty module's:`);
for (const script of scripts) {
  const [c, w] = [median(cpu.get(script)!), median(wall.get(script)!)];
  const [c0, w0] = [median(cpu.get(empty)!), median(wall.get(empty)!)];
  console.log(
    `  cpu ${c.toFixed(1).padStart(6)} ms (+${(c - c0).toFixed(1).padStart(5)})   workerd ${w.toFixed(1).padStart(6)} ms (+${(w - w0).toFixed(1).padStart(5)})   ${script === empty ? "(empty module)" : script}`,
  );
}
