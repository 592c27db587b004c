// Where a webhook URL leads, checked where its name resolves (issue 46, item 8; Stripe's Smokescreen
// is the model: it refuses private addresses where the connection is made). A Worker cannot resolve
// names itself, so the name is asked of the DNS-over-HTTPS resolver the MX lookups use (DOH_URL), for
// A and AAAA: any loopback, private, link-local, shared or other special-purpose answer refuses the
// URL. Called when a batch is created (a refusal is a 400) and again before each delivery (a name
// can be re-pointed after the check: DNS rebinding); any room that stores a webhook URL calls it.
import ipaddr from "ipaddr.js";
import type { Environment } from "../base/environment";
import { addressesProblem, isIpLiteral, normalizedHost, webhookUrlProblem } from "../contact-info/webhook-url";
import { DNS_NOERROR, queryDns } from "../enrichment/dns-over-https";
import type { Fetch } from "../enrichment/upstream";

/** What a webhook URL leads to: acceptable, refused (and why), or not known (the resolver did not answer). */
export type Destination = { kind: "public" } | { kind: "refused"; problem: string } | { kind: "unknown" };

export interface Resolver {
  /** DOH_URL. */
  url: string;
  timeoutMs: number;
  fetch?: Fetch;
}

const RECORD_TYPES = { A: 1, AAAA: 28 } as const;

/**
 * Where `url` leads from `environment`. Its text is checked first (webhookUrlProblem); in live, a host
 * name is then resolved. `test` keeps its text rule only, so local receivers on loopback work. A name
 * whose resolver gives no answer, or no address, is `unknown`: accepted at creation, not sent to yet.
 */
export async function webhookDestination(
  url: string,
  environment: Environment,
  resolver: Resolver,
): Promise<Destination> {
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
  let addresses: string[][];
  try {
    addresses = await Promise.all(
      (Object.keys(RECORD_TYPES) as (keyof typeof RECORD_TYPES)[]).map(async (type) =>
        addressesOf(await queryDns(host, type, resolver.url, upstream), RECORD_TYPES[type]),
      ),
    );
  } catch {
    return { kind: "unknown" };
  }
  return judgeAddresses(addresses.flat());
}

/** The pure decision over what the name resolved to. */
export function judgeAddresses(addresses: readonly string[]): Destination {
  if (addresses.length === 0) return { kind: "unknown" };
  const problem = addressesProblem(addresses);
  return problem ? { kind: "refused", problem } : { kind: "public" };
}

/** The addresses of one answer's records of `type`; throws when the answer is not one (the resolver's fault). */
function addressesOf(answer: { Status: number; Answer?: { type: number; data: string }[] } | null, type: number) {
  if (!answer) return [];
  if (answer.Status !== DNS_NOERROR) throw new Error(`dns: status ${answer.Status}`);
  const records = (answer.Answer ?? []).filter((record) => record.type === type).map((record) => record.data);
  if (records.some((data) => typeof data !== "string" || !ipaddr.isValid(data))) throw new Error("dns: not an address");
  return records;
}
