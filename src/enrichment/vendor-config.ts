import * as z from "zod";
import { configOf, nameList, url } from "../base/config";
import { nameValues } from "../base/name-values";
import { rateLimitOverrides } from "../base/vendor-limits";
import { FINDER_VENDORS, VENDORS, VERIFIER_VENDORS } from "./vendors";

// The vendors' configuration, read from their declarations (vendor.ts): which sources and
// verifiers are asked, in order, where each vendor answers, and the governor's budgets.

/** Sources that are not vendors: no secret, no limits. */
const OWN_SOURCES = ["directory", "pattern"] as const;
const SOURCE_NAMES = [...OWN_SOURCES, ...FINDER_VENDORS.map((vendor) => vendor.name)];
const VERIFIER_NAMES = VERIFIER_VENDORS.map((vendor) => vendor.name);
const vendorNamed = new Map(VENDORS.map((vendor) => [vendor.name, vendor]));

/** VENDOR_PRICES: `vendor=USD`, comma-separated, each replacing that vendor's declared price per call; empty keeps them. */
const vendorPrices = nameValues(
  (name) => vendorNamed.has(name),
  (price) => (/^\d+(\.\d+)?$/.test(price) ? Number(price) : undefined),
  (entry) => `entry "${entry}" is not vendor=USD, such as hunter=0.03`,
).transform(
  (prices) => new Map([...VENDORS.map((vendor): [string, number] => [vendor.name, vendor.pricePerCall]), ...prices]),
);

/** VENDOR_DAILY_CALLS: `vendor=CALLS` entries, each capping that vendor's paid calls per UTC day; a vendor not named has no ceiling. */
const vendorDailyCalls = nameValues(
  (name) => vendorNamed.has(name),
  (calls) => (/^\d+$/.test(calls) && Number.isSafeInteger(Number(calls)) ? Number(calls) : undefined),
  (entry) =>
    `entry "${entry}" is not vendor=CALLS, such as hunter=5000 (vendors: ${[...vendorNamed.keys()].join(", ")}; a whole number >= 0)`,
);

// Each vendor's URL variable, optional: its declaration has the URL.
const urlVars = Object.fromEntries(VENDORS.map((vendor) => [vendor.urlVariable, url.optional()]));

const vendorConfigSchema = z
  .object({
    ...urlVars,
    ENRICHMENT_PROVIDERS: nameList(SOURCE_NAMES, "provider"),
    ENRICHMENT_VERIFIERS: nameList(VERIFIER_NAMES, "verifier"),
    VENDOR_GOVERNOR: z.enum(["on", "off"], { error: 'must be "on" or "off"' }),
    // Each vendor's published limits, or those VENDOR_RATE_LIMITS gives for your plans.
    VENDOR_RATE_LIMITS: rateLimitOverrides(new Map(VENDORS.map((vendor) => [vendor.name, vendor.limits])), "vendor"),
    VENDOR_PRICES: vendorPrices,
    VENDOR_DAILY_CALLS: vendorDailyCalls,
    WATERFALL_ORDER: z.enum(["learned", "fixed"], { error: 'must be "learned" or "fixed"' }),
    WATERFALL_EXPLORATION_PERCENT: z.preprocess(
      (value) => (typeof value === "string" ? Number(value.trim()) : value),
      z.number({ error: "must be a whole number from 0 to 100" }).int().min(0).max(100),
    ),
  })
  .transform((vars) => ({
    sources: vars.ENRICHMENT_PROVIDERS,
    verifiers: vars.ENRICHMENT_VERIFIERS,
    /** Each vendor's limits for the shared budget, or null when calls are not governed. */
    vendorLimits: vars.VENDOR_GOVERNOR === "on" ? vars.VENDOR_RATE_LIMITS : null,
    /** Each vendor's price per call, USD. */
    prices: vars.VENDOR_PRICES,
    /** Each vendor's ceiling on paid calls per UTC day, across all customers (VendorCeiling); absent: none. */
    dailyCalls: vars.VENDOR_DAILY_CALLS,
    /** The finders' order per item: learned from the customer's scorecards, or as ENRICHMENT_PROVIDERS lists them. */
    order: vars.WATERFALL_ORDER,
    /** The share of items (0..1) asked in a random order of the paid finders, so the order keeps learning. */
    exploration: vars.WATERFALL_EXPLORATION_PERCENT / 100,
    /** Where each vendor answers. */
    urls: new Map(VENDORS.map((vendor) => [vendor.name, urlOf(vars, vendor.urlVariable) ?? vendor.defaultUrl])),
  }));

const urlOf = (vars: Record<string, unknown>, variable: string): string | undefined => {
  const value = vars[variable];
  return typeof value === "string" ? value : undefined;
};

export type VendorConfig = z.output<typeof vendorConfigSchema>;

export const readVendorConfig: (env: Env) => VendorConfig = configOf(vendorConfigSchema);
