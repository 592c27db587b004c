import type { RateWindow } from "../base/vendor-limits";
import type { ContactProvider } from "./provider";
import type { UpstreamCall } from "./upstream";
import type { EmailVerifier } from "./verifier";

/**
 * Everything the service knows of a vendor, declared once, in the vendor's own file:
 * configuration (its secret, its URL variable), the governor (its published limits)
 * and the enricher (its factory) read this and nothing else. Adding a vendor is its
 * file and one line in vendors.ts.
 */
interface Vendor<Kind extends string, Made> {
  /** The name items' `sources` show, ENRICHMENT_PROVIDERS / ENRICHMENT_VERIFIERS list, and the governor is keyed by. */
  readonly name: string;
  readonly kind: Kind;
  /** The Worker secret holding our API key (`wrangler secret put`); without it the vendor is never asked. */
  readonly secret: string;
  /** The variable that overrides its base URL (`wrangler dev --var`, tests' fakes), and the URL without it. */
  readonly urlVariable: string;
  readonly defaultUrl: string;
  /** Its published limits on the one endpoint we call, per API key (the governor's defaults; VENDOR_RATE_LIMITS overrides). */
  readonly limits: readonly RateWindow[];
  /** What one call costs us, in USD, at the plan we assume (VENDOR_PRICES overrides): the learned order weighs it (waterfall-order.ts). */
  readonly pricePerCall: number;
  readonly create: (apiKey: string, baseUrl: string, upstream: Omit<UpstreamCall, "provider">) => Made;
}

/** A data source that finds contacts. */
export type FinderVendor = Vendor<"finder", ContactProvider>;
/** A verifier of the emails found. */
export type VerifierVendor = Vendor<"verifier", EmailVerifier>;
export type AnyVendor = FinderVendor | VerifierVendor;
