import { apollo } from "./apollo-provider";
import { hunter } from "./hunter-provider";
import { neverbounce } from "./neverbounce-verifier";
import { pdl } from "./pdl-provider";
import { prospeo } from "./prospeo-provider";
import type { AnyVendor, FinderVendor, VerifierVendor } from "./vendor";
import { zerobounce } from "./zerobounce-verifier";

// Every vendor the service can ask (each declared in its own file: vendor.ts).
export const FINDER_VENDORS: readonly FinderVendor[] = [hunter, pdl, apollo, prospeo];
export const VERIFIER_VENDORS: readonly VerifierVendor[] = [zerobounce, neverbounce];
export const VENDORS: readonly AnyVendor[] = [...FINDER_VENDORS, ...VERIFIER_VENDORS];
