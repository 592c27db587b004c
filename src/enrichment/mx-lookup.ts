import { ByteBudgetCache } from "../base/byte-budget-cache";
import { log } from "../base/log";
import { TransientProviderError } from "./provider";
import { fetchJson, type UpstreamCall, UpstreamUnreachableError } from "./upstream";

export type MailExchange = "accepts_mail" | "no_mail";

interface DnsJsonAnswer {
  Status: number;
  Answer?: { type: number; data: string; TTL?: number }[];
}

const DNS_NOERROR = 0;
const DNS_NXDOMAIN = 3;
const MX = 15;
const MIN_TTL_SECONDS = 300;
const MAX_TTL_SECONDS = 86_400;
// Answers kept in the isolate: about 7,000 of typical domains (a domain may be up to 512 characters).
const MX_CACHE_BUDGET_BYTES = 2 * 1024 * 1024;

// An unreachable resolver (offline, DNS down) is not asked again for this long:
// every lookup would wait for the same failure, and workerd prints each failed
// connection in the dev log. Until a resolver has answered once, lookups go to it
// one at a time, so going offline costs one failure, not one per domain at once.
const UNREACHABLE_PAUSE_MS = 30_000;

const cache = new ByteBudgetCache<{ answer: MailExchange; expiresAt: number }>(MX_CACHE_BUDGET_BYTES);
// These three are keyed by the configured resolver URL: one entry each.
const unreachableUntil = new Map<string, number>();
const answering = new Set<string>();
const firstContact = new Map<string, Promise<void>>();

/** Interprets a DNS JSON answer for MX: NXDOMAIN, no MX, or only a null MX (RFC 7505 "0 .") mean no mail. */
function interpretMx(answer: DnsJsonAnswer): { result: MailExchange; ttlSeconds: number } | null {
  if (answer.Status === DNS_NXDOMAIN) return { result: "no_mail", ttlSeconds: MIN_TTL_SECONDS };
  if (answer.Status !== DNS_NOERROR) return null;
  const records = (answer.Answer ?? []).filter((record) => record.type === MX);
  const ttl = Math.min(...records.map((record) => record.TTL ?? MIN_TTL_SECONDS), MAX_TTL_SECONDS);
  const real = records.filter((record) => !/^\s*0\s+\.?\s*$/.test(record.data));
  return { result: real.length > 0 ? "accepts_mail" : "no_mail", ttlSeconds: Math.max(MIN_TTL_SECONDS, ttl) };
}

/**
 * Whether a domain receives mail, over DNS-over-HTTPS (the JSON API, `?name=&type=MX`).
 * Answers are cached in the isolate for their DNS TTL (5 minutes to 1 day).
 */
export async function lookupMx(
  domain: string,
  resolverUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
  now = Date.now(),
): Promise<MailExchange> {
  const cached = cache.get(domain);
  if (cached && cached.expiresAt > now) return cached.answer;
  const url = new URL(resolverUrl);
  url.searchParams.set("name", domain);
  url.searchParams.set("type", "MX");
  const answer = await askResolver(
    resolverUrl,
    new Request(url, { headers: { accept: "application/dns-json" } }),
    upstream,
    now,
  );
  const interpreted = answer && interpretMx(answer);
  // SERVFAIL and the like say nothing about the domain: try again later.
  if (!interpreted) throw new TransientProviderError(`dns: resolver answered status ${answer?.Status}`);
  cache.set(domain, { answer: interpreted.result, expiresAt: now + interpreted.ttlSeconds * 1000 }, 0);
  return interpreted.result;
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
  const asked = fetchJson<DnsJsonAnswer>({ ...upstream, provider: "dns" }, request);
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
