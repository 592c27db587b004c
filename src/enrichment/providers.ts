import type { Config } from "../base/config";
import type { Environment } from "../base/environment";
import { optionalSecret } from "../base/secrets";
import { ceilingStub, governorStub } from "../vendor-governor/stub";
import { type CallGate, callGate } from "./call-gate";
import { ceilingGate } from "./ceiling-gate";
import { directoryProvider } from "./directory";
import { patternProvider } from "./pattern-provider";
import { type ContactProvider, unconfiguredProvider } from "./provider";
import { sandboxProvider } from "./sandbox-provider";
import { sandboxVerifier } from "./sandbox-verifier";
import type { Fetch, UpstreamCall } from "./upstream";
import type { AnyVendor, FinderVendor, VerifierVendor } from "./vendor";
import { readVendorConfig, type VendorConfig } from "./vendor-config";
import { FINDER_VENDORS, VERIFIER_VENDORS } from "./vendors";
import { type EmailVerifier, unconfiguredVerifier } from "./verifier";

type Upstream = Omit<UpstreamCall, "provider">;

// Wrapped: workerd's fetch refuses to be called as a method of another object.
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init);

/**
 * Makes one vendor's source or verifier, with its key, calling through that key's shared
 * budget (VendorGovernor) when VENDOR_GOVERNOR is on, and the vendor's daily ceiling (VendorCeiling)
 * when VENDOR_DAILY_CALLS names it. Built per enricher, so one consumer invocation shares one gate
 * and one ceiling per vendor among its items.
 */
function made(env: Env, vendors: VendorConfig, upstream: Upstream, vendor: FinderVendor): ContactProvider | undefined;
function made(env: Env, vendors: VendorConfig, upstream: Upstream, vendor: VerifierVendor): EmailVerifier | undefined;
function made(
  env: Env,
  vendors: VendorConfig,
  upstream: Upstream,
  vendor: AnyVendor,
): ContactProvider | EmailVerifier | undefined {
  // Optional (src/base/secrets.ts): operators enable a vendor by setting its secret; one without it
  // stays in the list, never asked, so items report it skipped.
  const apiKey = optionalSecret(env, vendor.secret);
  if (!apiKey) return undefined;
  const limits = vendors.vendorLimits?.get(vendor.name);
  let stub: ReturnType<typeof governorStub> | undefined;
  const gate: CallGate | undefined =
    limits && callGate(vendor.name, limits, () => (stub ??= governorStub(env, vendor.name, apiKey)));
  const dailyCalls = vendors.dailyCalls.get(vendor.name);
  const ceiling =
    dailyCalls === undefined ? undefined : ceilingGate(vendor.name, dailyCalls, () => ceilingStub(env, vendor.name));
  return vendor.create(apiKey, vendors.urls.get(vendor.name) ?? vendor.defaultUrl, {
    ...upstream,
    ...(gate ? { gate } : {}),
    ...(ceiling ? { ceiling } : {}),
  });
}

const finderNamed = new Map<string, FinderVendor>(FINDER_VENDORS.map((vendor) => [vendor.name, vendor]));
const verifierNamed = new Map<string, VerifierVendor>(VERIFIER_VENDORS.map((vendor) => [vendor.name, vendor]));

/** The providers an item of `environment` is asked, in order. `test` only ever uses the sandbox. */
export function providersFor(
  environment: Environment,
  env: Env,
  config: Config,
  fetch: Fetch = globalFetch,
): ContactProvider[] {
  if (environment === "test") return [sandboxProvider];
  const { enrichment } = config;
  const vendors = readVendorConfig(env);
  const upstream = { fetch, timeoutMs: enrichment.providerTimeoutMs };
  return vendors.sources.map((name) => {
    if (name === "directory") return directoryProvider(env.DIRECTORY);
    if (name === "pattern") return patternProvider(env.DIRECTORY, enrichment.dohUrl, upstream);
    const vendor = finderNamed.get(name)!;
    return made(env, vendors, upstream, vendor) ?? unconfiguredProvider(name);
  });
}

/** The verifiers of an item of `environment`'s emails, in order. `test` only ever uses the sandbox's. */
export function verifiersFor(
  environment: Environment,
  env: Env,
  config: Config,
  fetch: Fetch = globalFetch,
): EmailVerifier[] {
  if (environment === "test") return [sandboxVerifier];
  const vendors = readVendorConfig(env);
  const upstream = { fetch, timeoutMs: config.enrichment.providerTimeoutMs };
  return vendors.verifiers.map(
    (name) => made(env, vendors, upstream, verifierNamed.get(name)!) ?? unconfiguredVerifier(name),
  );
}
