import { nameValues } from "./name-values";

/**
 * A vendor's published limit: at most `limit` calls in any span of `seconds`. Each vendor
 * declares its own (src/enrichment/vendor.ts), as each CRM does (src/crm/crm.ts);
 * VENDOR_RATE_LIMITS and CRM_RATE_LIMITS override them.
 */
export interface RateWindow {
  limit: number;
  seconds: number;
}

/** `LIMIT/SECONDS[+LIMIT/SECONDS…]`, whole numbers >= 1, as windows; undefined if it is not. */
export function parseWindows(spec: string): RateWindow[] | undefined {
  const windows = spec.split("+").map((window) => /^(\d+)\/(\d+)$/.exec(window.trim()));
  const read = windows.map((match) => match && { limit: Number(match[1]), seconds: Number(match[2]) });
  return read.every((window) => window !== null && window.limit >= 1 && window.seconds >= 1)
    ? read.filter((window) => window !== null)
    : undefined;
}

/**
 * A variable of `name=LIMIT/SECONDS[+LIMIT/SECONDS…]` entries, comma-separated, each replacing that
 * name's `declared` limits (e.g. `hunter=30/1+1000/60,pdl=1000/60`); empty keeps them all. `what`
 * names the kind in the refusal of an entry ("vendor", "crm").
 */
export const rateLimitOverrides = (declared: ReadonlyMap<string, readonly RateWindow[]>, what: string) =>
  nameValues(
    (name) => declared.has(name),
    parseWindows,
    (entry) =>
      `entry "${entry}" is not ${what}=LIMIT/SECONDS[+LIMIT/SECONDS] (${what}s: ${[...declared.keys()].join(", ")}; whole numbers >= 1)`,
  ).transform((overrides) => new Map<string, readonly RateWindow[]>([...declared, ...overrides]));
