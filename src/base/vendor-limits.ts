import * as z from "zod";

/**
 * A vendor's published limit: at most `limit` calls in any span of `seconds`. Each vendor
 * declares its own (src/enrichment/vendor.ts), as each CRM does (src/crm/crm.ts);
 * VENDOR_RATE_LIMITS and CRM_RATE_LIMITS override them.
 */
export interface RateWindow {
  limit: number;
  seconds: number;
}

/**
 * A variable of `name=LIMIT/SECONDS[+LIMIT/SECONDS…]` entries, comma-separated, each replacing that
 * name's `declared` limits (e.g. `hunter=30/1+1000/60,pdl=1000/60`); empty keeps them all. `what`
 * names the kind in the refusal of an entry ("vendor", "crm").
 */
export const rateLimitOverrides = (declared: ReadonlyMap<string, readonly RateWindow[]>, what: string) =>
  z.string().transform((value, ctx) => {
    const limits = new Map(declared);
    for (const entry of value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const [name = "", spec = ""] = entry.split("=").map((part) => part.trim());
      const windows = spec.split("+").map((window) => /^(\d+)\/(\d+)$/.exec(window.trim()));
      if (!declared.has(name) || windows.some((match) => !match || Number(match[1]) < 1 || Number(match[2]) < 1)) {
        ctx.addIssue({
          code: "custom",
          message: `entry "${entry}" is not ${what}=LIMIT/SECONDS[+LIMIT/SECONDS] (${what}s: ${[...declared.keys()].join(", ")}; whole numbers >= 1)`,
        });
        continue;
      }
      limits.set(
        name,
        windows.map((match) => ({ limit: Number(match?.[1]), seconds: Number(match?.[2]) })),
      );
    }
    return limits;
  });
