import type { Config, ProviderName, VerifierName } from "../config";
import type { Environment } from "../environment";
import { governorStub } from "../vendor-governor/stub";
import type { GovernedVendor } from "../vendor-limits";
import { apolloProvider } from "./apollo-provider";
import { type CallGate, callGate } from "./call-gate";
import { directoryProvider } from "./directory";
import { hunterProvider } from "./hunter-provider";
import { neverBounceVerifier } from "./neverbounce-verifier";
import { patternProvider } from "./pattern-provider";
import { pdlProvider } from "./pdl-provider";
import { prospeoProvider } from "./prospeo-provider";
import { type ContactProvider, unconfiguredProvider } from "./provider";
import { sandboxProvider } from "./sandbox-provider";
import { sandboxVerifier } from "./sandbox-verifier";
import type { Fetch, UpstreamCall } from "./upstream";
import { type EmailVerifier, unconfiguredVerifier } from "./verifier";
import { zeroBounceVerifier } from "./zerobounce-verifier";

// Secrets are set with `wrangler secret put` and are optional, so `wrangler
// types` cannot see them; a vendor is used only when its key is present.
interface VendorSecrets {
  HUNTER_API_KEY?: string;
  PDL_API_KEY?: string;
  APOLLO_API_KEY?: string;
  PROSPEO_API_KEY?: string;
  ZEROBOUNCE_API_KEY?: string;
  NEVERBOUNCE_API_KEY?: string;
}

// Wrapped: workerd's fetch refuses to be called as a method of another object.
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init);

/**
 * A vendor's calls with its key, through that key's shared budget (VendorGovernor)
 * when VENDOR_GOVERNOR is on. Built per enricher, so one consumer invocation
 * shares one gate per vendor among its items.
 */
function governed(env: Env, config: Config, upstream: Omit<UpstreamCall, "provider">, vendor: GovernedVendor, apiKey: string) {
  const limits = config.enrichment.vendorLimits;
  if (!limits) return upstream;
  let stub: ReturnType<typeof governorStub> | undefined;
  const gate: CallGate = callGate(vendor, limits[vendor], () => (stub ??= governorStub(env, vendor, apiKey)));
  return { ...upstream, gate };
}

/** The providers an item of `environment` is asked, in order. `test` only ever uses the sandbox. */
export function providersFor(environment: Environment, env: Env, config: Config, fetch: Fetch = globalFetch): ContactProvider[] {
  if (environment === "test") return [sandboxProvider];
  const { enrichment } = config;
  const upstream = { fetch, timeoutMs: enrichment.providerTimeoutMs };
  const secrets = env as Env & VendorSecrets;
  // A vendor without its secret is not an error: operators enable vendors by setting secrets.
  // It stays in the list, never asked, so items report it skipped.
  const build: Record<ProviderName, () => ContactProvider> = {
    directory: () => directoryProvider(env.DIRECTORY),
    pattern: () => patternProvider(env.DIRECTORY, enrichment.dohUrl, upstream),
    hunter: () =>
      secrets.HUNTER_API_KEY
        ? hunterProvider(secrets.HUNTER_API_KEY, enrichment.hunterApiUrl, governed(env, config, upstream, "hunter", secrets.HUNTER_API_KEY))
        : unconfiguredProvider("hunter"),
    pdl: () =>
      secrets.PDL_API_KEY
        ? pdlProvider(secrets.PDL_API_KEY, enrichment.pdlApiUrl, governed(env, config, upstream, "pdl", secrets.PDL_API_KEY))
        : unconfiguredProvider("pdl"),
    apollo: () =>
      secrets.APOLLO_API_KEY
        ? apolloProvider(secrets.APOLLO_API_KEY, enrichment.apolloApiUrl, governed(env, config, upstream, "apollo", secrets.APOLLO_API_KEY))
        : unconfiguredProvider("apollo"),
    prospeo: () =>
      secrets.PROSPEO_API_KEY
        ? prospeoProvider(
            secrets.PROSPEO_API_KEY,
            enrichment.prospeoApiUrl,
            governed(env, config, upstream, "prospeo", secrets.PROSPEO_API_KEY),
          )
        : unconfiguredProvider("prospeo"),
  };
  return enrichment.providers.map((name) => build[name]());
}

/** The verifiers of an item of `environment`'s emails, in order. `test` only ever uses the sandbox's. */
export function verifiersFor(environment: Environment, env: Env, config: Config, fetch: Fetch = globalFetch): EmailVerifier[] {
  if (environment === "test") return [sandboxVerifier];
  const { enrichment } = config;
  const upstream = { fetch, timeoutMs: enrichment.providerTimeoutMs };
  const secrets = env as Env & VendorSecrets;
  const build: Record<VerifierName, () => EmailVerifier> = {
    zerobounce: () =>
      secrets.ZEROBOUNCE_API_KEY
        ? zeroBounceVerifier(
            secrets.ZEROBOUNCE_API_KEY,
            enrichment.zeroBounceApiUrl,
            governed(env, config, upstream, "zerobounce", secrets.ZEROBOUNCE_API_KEY),
          )
        : unconfiguredVerifier("zerobounce"),
    neverbounce: () =>
      secrets.NEVERBOUNCE_API_KEY
        ? neverBounceVerifier(
            secrets.NEVERBOUNCE_API_KEY,
            enrichment.neverBounceApiUrl,
            governed(env, config, upstream, "neverbounce", secrets.NEVERBOUNCE_API_KEY),
          )
        : unconfiguredVerifier("neverbounce"),
  };
  return enrichment.verifiers.map((name) => build[name]());
}
