import type { Estimate } from "./paths.js";

type Counts = Omit<Estimate, "remainingCredits">;

/**
 * The estimates of several batches as one: what sending them all would make and cost at most. A file
 * larger than a batch is sent as several (the console and `npm run enrich` alike), each estimated;
 * what remains of the month's budget is the last part's (each was asked in turn, none reserved).
 */
export function sumEstimates(parts: readonly Estimate[]): Estimate {
  const total: Counts = {
    itemCount: 0,
    validItems: 0,
    invalidItems: 0,
    duplicateItems: 0,
    cachedItems: 0,
    maxCredits: 0,
  };
  for (const part of parts) for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += part[key];
  return { ...total, remainingCredits: parts.at(-1)?.remainingCredits ?? null };
}
