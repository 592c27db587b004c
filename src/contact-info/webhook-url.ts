import ipaddr from "ipaddr.js";
import type { Environment } from "../base/environment";

// Names of this machine, a private network, or a cloud metadata service.
const BLOCKED_HOST_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa"];
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
function normalizedHost(url: URL): string {
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

const isIpLiteral = (host: string) => host.startsWith("[") || ipaddr.IPv4.isValidFourPartDecimal(host);

/**
 * Why a webhook URL is refused, or null when it is acceptable. Both environments
 * take https to a public host on port 443 or an unprivileged port (≥ 1024);
 * `test` also takes http(s) on any port to this machine (127.0.0.1, localhost,
 * [::1]) for local development. Host names are checked without resolving them (a
 * Worker cannot resolve DNS itself), so a public name that resolves to a private address
 * (localtest.me) passes: what stops it in live is the platform (a deployed Worker's
 * fetch goes to the public Internet; private networks only through a Workers VPC binding)
 * and deliveries that never follow redirects. The README's Webhooks section says so, with sources.
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
    BLOCKED_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix)) ||
    !host.includes(".")
  ) {
    return "must name a public host";
  }
  // The URL parser drops the default port (443), so `port` is empty for it.
  if (url.port !== "" && Number(url.port) < MIN_UNPRIVILEGED_PORT)
    return `must use port 443 or a port from ${MIN_UNPRIVILEGED_PORT} up`;
  return null;
}
