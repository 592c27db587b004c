// The one DNS-over-HTTPS client (DOH_URL, the JSON API: `?name=&type=`): the pattern finder's MX
// lookups and the webhook destination check (webhooks/webhook-destination.ts) ask through it.
import * as z from "zod";
import { log } from "../base/log";
import { TransientProviderError } from "./provider";
import { fetchJson, type UpstreamCall, UpstreamUnreachableError } from "./upstream";

// The DNS JSON API's answer (RFC 8427's names), as much as we read (other fields pass).
const dnsJsonAnswer = z.object({
  Status: z.number().int(),
  Answer: z.array(z.object({ type: z.number().int(), data: z.string(), TTL: z.number().optional() })).optional(),
});
export type DnsJsonAnswer = z.infer<typeof dnsJsonAnswer>;

export const DNS_NOERROR = 0;
export const DNS_NXDOMAIN = 3;

// An unreachable resolver (offline, DNS down) is not asked again for this long:
// every lookup would wait for the same failure, and workerd prints each failed
// connection in the dev log. Until a resolver has answered once, lookups go to it
// one at a time, so going offline costs one failure, not one per domain at once.
const UNREACHABLE_PAUSE_MS = 30_000;

// These three are keyed by the configured resolver URL: one entry each.
const unreachableUntil = new Map<string, number>();
const answering = new Set<string>();
const firstContact = new Map<string, Promise<void>>();

/** One DNS JSON query for `name`'s records of `type` (MX, A, AAAA). Throws TransientProviderError when it has no answer. */
export async function queryDns(
  name: string,
  type: string,
  resolverUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
  now = Date.now(),
): Promise<DnsJsonAnswer | null> {
  const url = new URL(resolverUrl);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  return askResolver(resolverUrl, new Request(url, { headers: { accept: "application/dns-json" } }), upstream, now);
}

/** One DNS JSON query, unless the resolver was unreachable moments ago (see UNREACHABLE_PAUSE_MS). */
async function askResolver(
  resolverUrl: string,
  request: Request,
  upstream: Omit<UpstreamCall, "provider">,
  now: number,
): Promise<DnsJsonAnswer | null> {
  const probe = firstContact.get(resolverUrl);
  if (probe && !answering.has(resolverUrl)) await probe;
  if ((unreachableUntil.get(resolverUrl) ?? 0) > now) {
    log("upstream_unreachable", { provider: "dns", reason: "not asked: unreachable moments ago" });
    throw new TransientProviderError("dns: resolver unreachable moments ago");
  }
  const asked = fetchJson({ ...upstream, provider: "dns" }, request, dnsJsonAnswer);
  const noted = asked.then(
    () => void answering.add(resolverUrl),
    (error: unknown) => {
      if (!(error instanceof UpstreamUnreachableError)) return void answering.add(resolverUrl);
      answering.delete(resolverUrl);
      unreachableUntil.set(resolverUrl, now + UNREACHABLE_PAUSE_MS);
    },
  );
  if (!answering.has(resolverUrl) && !firstContact.has(resolverUrl))
    firstContact.set(
      resolverUrl,
      noted.finally(() => firstContact.delete(resolverUrl)),
    );
  await noted;
  return asked;
}
