import type { Config, ProviderName } from "../config";
import type { Environment } from "../environment";
import { directoryProvider } from "./directory";
import { hunterProvider } from "./hunter-provider";
import { patternProvider } from "./pattern-provider";
import { pdlProvider } from "./pdl-provider";
import { type ContactProvider, unconfiguredProvider } from "./provider";
import { sandboxProvider } from "./sandbox-provider";
import type { Fetch } from "./upstream";

// Secrets are set with `wrangler secret put` and are optional, so `wrangler
// types` cannot see them; a vendor is used only when its key is present.
interface VendorSecrets {
  HUNTER_API_KEY?: string;
  PDL_API_KEY?: string;
}

/** The providers an item of `environment` is asked, in order. `test` only ever uses the sandbox. */
export function providersFor(
  environment: Environment,
  env: Env,
  config: Config,
  // Wrapped: workerd's fetch refuses to be called as a method of another object.
  fetch: Fetch = (input, init) => globalThis.fetch(input, init),
): ContactProvider[] {
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
      secrets.HUNTER_API_KEY ? hunterProvider(secrets.HUNTER_API_KEY, enrichment.hunterApiUrl, upstream) : unconfiguredProvider("hunter"),
    pdl: () => (secrets.PDL_API_KEY ? pdlProvider(secrets.PDL_API_KEY, enrichment.pdlApiUrl, upstream) : unconfiguredProvider("pdl")),
  };
  return enrichment.providers.map((name) => build[name]());
}
