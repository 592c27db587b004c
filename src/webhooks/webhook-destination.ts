// Where a webhook URL leads, checked where its name resolves (issue 46, item 8; Stripe's Smokescreen
// is the model: it refuses private addresses where the connection is made). A Worker cannot resolve
// names itself, so the name is asked of the DNS-over-HTTPS resolver the MX lookups use (DOH_URL), for
// A and AAAA: any loopback, private, link-local, shared or other special-purpose answer refuses the
// URL. Called when a batch is created (a refusal is a 400) and again before each delivery (a name
// can be re-pointed after the check: DNS rebinding); any room that stores a webhook URL calls it.
import ipaddr from "ipaddr.js";
import { readConfig } from "../base/config";
import type { Environment } from "../base/environment";
import { addressesProblem, isIpLiteral, normalizedHost, webhookUrlProblem } from "../contact-info/webhook-url";
import { DNS_NOERROR, queryDns } from "../enrichment/dns-over-https";
import type { Fetch } from "../enrichment/upstream";

/** What a webhook URL leads to: acceptable, refused (and why), or not known (the resolver did not answer). */
export type Destination = { kind: "public" } | { kind: "refused"; problem: string } | { kind: "unknown" };

interface Resolver {
  /** DOH_URL. */
  url: string;
  timeoutMs: number;
  fetch?: Fetch;
}

const RECORD_TYPE = { A: 1, AAAA: 28 } as const;

/**
 * Where `url` leads from `environment`. Its text is checked first (webhookUrlProblem); in live, a host
 * name is then resolved. `test` keeps its text rule only, so local receivers on loopback work. A name
 * whose resolver gives no answer, or no address, is `unknown`: accepted at creation, not sent to yet.
 */
async function webhookDestination(url: string, environment: Environment, resolver: Resolver): Promise<Destination> {
  const textProblem = webhookUrlProblem(url, environment);
  if (textProblem) return { kind: "refused", problem: textProblem };
  const host = normalizedHost(new URL(url));
  if (environment === "test" || isIpLiteral(host)) return { kind: "public" };
  // Called through a closure: the platform's fetch refuses to run with another `this`.
  const upstream = {
    fetch: resolver.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: resolver.timeoutMs,
  } satisfies {
    fetch: Fetch;
    timeoutMs: number;
  };
  /** The name's addresses of `type`; null when the resolver gave no answer that is one (its fault, or down). */
  const addresses = async (type: keyof typeof RECORD_TYPE) => {
    const answer = await queryDns(host, type, resolver.url, upstream).catch(() => null);
    if (answer?.Status !== DNS_NOERROR) return null;
    const data = (answer.Answer ?? []).filter((record) => record.type === RECORD_TYPE[type]).map(({ data }) => data);
    return data.every((address) => ipaddr.isValid(address)) ? data : null;
  };
  const [v4, v6] = await Promise.all([addresses("A"), addresses("AAAA")]);
  // An inside answer refuses, whatever the other family's lookup gave; public needs both answered.
  const verdict = judgeAddresses([...(v4 ?? []), ...(v6 ?? [])]);
  return verdict.kind === "public" && !(v4 && v6) ? { kind: "unknown" } : verdict;
}

/** Where `url` leads, asked of the deployment's resolver (DOH_URL, within the vendors' timeout). */
export function destinationOf(env: Env, url: string, environment: Environment): Promise<Destination> {
  const { enrichment } = readConfig(env);
  return webhookDestination(url, environment, { url: enrichment.dohUrl, timeoutMs: enrichment.providerTimeoutMs });
}

/** The pure decision over what the name resolved to. */
export function judgeAddresses(addresses: readonly string[]): Destination {
  if (addresses.length === 0) return { kind: "unknown" };
  const problem = addressesProblem(addresses);
  return problem ? { kind: "refused", problem } : { kind: "public" };
}
