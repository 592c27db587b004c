import { namedValues } from "./config";

/**
 * A vendor's published limit: at most `limit` calls in any span of `seconds`. Each vendor
 * declares its own (src/enrichment/vendor.ts), as each CRM does (src/crm/crm.ts);
 * VENDOR_RATE_LIMITS and CRM_RATE_LIMITS override them.
 */
export interface RateWindow {
  limit: number;
  seconds: number;
}

/** `LIMIT/SECONDS[+LIMIT/SECONDS…]`, each a whole number >= 1, as windows; undefined when it is not that. */
function windowsOf(spec: string): RateWindow[] | undefined {
  const windows: RateWindow[] = [];
  for (const window of spec.split("+")) {
    const match = /^(\d+)\/(\d+)$/.exec(window.trim());
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) return undefined;
    windows.push({ limit: Number(match[1]), seconds: Number(match[2]) });
  }
  return windows;
}

/**
 * A variable of `name=LIMIT/SECONDS[+LIMIT/SECONDS…]` entries, comma-separated, each replacing that
 * name's `declared` limits (e.g. `hunter=30/1+1000/60,pdl=1000/60`); empty keeps them all. `what`
 * names the kind in the refusal of an entry ("vendor", "crm").
 */
export const rateLimitOverrides = (declared: ReadonlyMap<string, readonly RateWindow[]>, what: string) =>
  namedValues(
    [...declared.keys()],
    `${what}=LIMIT/SECONDS[+LIMIT/SECONDS] (${what}s: ${[...declared.keys()].join(", ")}; whole numbers >= 1)`,
    windowsOf,
  ).transform((overrides) => new Map<string, readonly RateWindow[]>([...declared, ...overrides]));
