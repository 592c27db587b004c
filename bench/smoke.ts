// `BENCH_SMOKE=1 npm run bench…`: a benchmark at its smallest size, as .ci/run runs every one, so a
// benchmark that stopped working fails the build, not the day someone measures with it. A smoke proves
// the whole path runs (its servers start, its batches complete, its figures compute); its figures mean
// nothing, so it writes no results, no chart and no report.
import { writeFileSync } from "node:fs";

export const SMOKE = process.env.BENCH_SMOKE === "1";

/** The size a benchmark runs at: `full` (as its flags and variables say), or `smallest` in a smoke. */
export const sized = <T>(full: T, smallest: T): T => (SMOKE ? smallest : full);

/** Writes a result (a JSON file, a chart), except in a smoke, which says what it left out. */
export function writeResult(path: string, text: string): void {
  if (SMOKE) console.log(`smoke: ${path} not written`);
  else writeFileSync(path, text);
}
