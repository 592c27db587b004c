import ipaddr from "ipaddr.js";
import type { Environment } from "../base/environment";

// Names of this machine, a private network, or a cloud metadata service.
const BLOCKED_HOST_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa"];
// Refused in live too (issue 46): the special-use names of RFC 6761 and RFC 7686 that resolve nowhere
// public, and the private suffixes in common use. `test` keeps them: its receivers may be fakes (hooks.test).
const LIVE_BLOCKED_HOST_SUFFIXES = [
  ...BLOCKED_HOST_SUFFIXES,
  ".test",
  ".example",
  ".invalid",
  ".onion",
  ".home",
  ".corp",
  ".svc",
];
const BLOCKED_HOSTS = new Set(["localhost", "metadata", "metadata.google.internal", "instance-data"]);

const LOCAL_DEVELOPMENT_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

// IANA allocates global unicast IPv6 only from 2000::/3; the rest (including the
// deprecated IPv4-compatible ::a.b.c.d) is reserved, whatever ipaddr.js calls it.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

const MIN_UNPRIVILEGED_PORT = 1024;

/**
 * The host as it will be resolved: the URL parser has already lower-cased it,
 * decoded percent escapes and written numeric IPv4 forms (2130706433, 0x7f.1)
 * as dotted quads; trailing dots (`localhost.`) name the same host and go too.
 */
export function normalizedHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.+$/, "");
}

/**
 * Whether an IP literal is an ordinary public unicast address. Everything
 * ipaddr.js files under a special-purpose range is refused: loopback, private,
 * link-local, CGNAT, documentation, benchmarking, multicast, broadcast, reserved,
 * unspecified, unique-local, NAT64 and IPv4-translated, 6to4 and Teredo. An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
function isPublicAddress(literal: string): boolean {
  if (!ipaddr.isValid(literal)) return false;
  const address = ipaddr.process(literal);
  if (address.kind() === "ipv4") return address.range() === "unicast";
  return address.range() === "unicast" && address.match(GLOBAL_UNICAST_V6);
}

export const isIpLiteral = (host: string) => host.startsWith("[") || ipaddr.IPv4.isValidFourPartDecimal(host);

/**
 * Why a webhook URL is refused by its text, or null when its text is acceptable. Both environments
 * take https to a public host on port 443 or an unprivileged port (≥ 1024);
 * `test` also takes http(s) on any port to this machine (127.0.0.1, localhost,
 * [::1]) for local development. In live, special-use and private suffixes are refused too.
 * What a name resolves to is checked apart, over DNS-over-HTTPS (webhooks/webhook-destination.ts,
 * with addressesProblem below), when the batch is created and before each delivery.
 */
export function webhookUrlProblem(raw: string, environment: Environment): string | null {
  if (!URL.canParse(raw)) return "must be an absolute URL";
  const url = new URL(raw);
  if (url.username || url.password) return "must not contain credentials";
  const host = normalizedHost(url);
  const web = url.protocol === "http:" || url.protocol === "https:";
  if (environment === "test" && web && LOCAL_DEVELOPMENT_HOSTS.has(host)) return null;
  if (url.protocol !== "https:")
    return environment === "test" ? "must use https (or http to 127.0.0.1 / localhost in test)" : "must use https";
  if (isIpLiteral(host)) {
    if (!isPublicAddress(host.replace(/^\[|\]$/g, ""))) {
      return "must not point to a loopback, private, link-local, metadata or other special-purpose address";
    }
  } else if (
    BLOCKED_HOSTS.has(host) ||
    (environment === "live" ? LIVE_BLOCKED_HOST_SUFFIXES : BLOCKED_HOST_SUFFIXES).some((suffix) =>
      host.endsWith(suffix),
    ) ||
    !host.includes(".")
  ) {
    return "must name a public host";
  }
  // The URL parser drops the default port (443), so `port` is empty for it.
  if (url.port !== "" && Number(url.port) < MIN_UNPRIVILEGED_PORT)
    return `must use port 443 or a port from ${MIN_UNPRIVILEGED_PORT} up`;
  return null;
}

/**
 * Why a host whose name resolved to `addresses` (A and AAAA) is refused, or null when every one is an
 * ordinary public unicast address. One special-purpose answer is enough: a name that resolves both
 * inside and outside is refused, since the connection could go to either.
 */
export function addressesProblem(addresses: readonly string[]): string | null {
  const inside = addresses.find((address) => !isPublicAddress(address));
  return inside === undefined
    ? null
    : `must not resolve to a loopback, private, link-local, shared or other special-purpose address (it resolves to ${inside})`;
}
