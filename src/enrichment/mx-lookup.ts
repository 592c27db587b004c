import { ByteBudgetCache } from "../base/byte-budget-cache";
import { DNS_NOERROR, DNS_NXDOMAIN, type DnsJsonAnswer, queryDns } from "./dns-over-https";
import { TransientProviderError } from "./provider";
import type { UpstreamCall } from "./upstream";

export type MailExchange = "accepts_mail" | "no_mail";

const MX = 15;
const MIN_TTL_SECONDS = 300;
const MAX_TTL_SECONDS = 86_400;
// Answers kept in the isolate: about 7,000 of typical domains (a domain may be up to 512 characters).
const MX_CACHE_BUDGET_BYTES = 2 * 1024 * 1024;

const cache = new ByteBudgetCache<{ answer: MailExchange; expiresAt: number }>(MX_CACHE_BUDGET_BYTES);

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
  const answer = await queryDns(domain, "MX", resolverUrl, upstream, now);
  const interpreted = answer && interpretMx(answer);
  // SERVFAIL and the like say nothing about the domain: try again later.
  if (!interpreted) throw new TransientProviderError(`dns: resolver answered status ${answer?.Status}`);
  cache.set(domain, { answer: interpreted.result, expiresAt: now + interpreted.ttlSeconds * 1000 }, 0);
  return interpreted.result;
}
