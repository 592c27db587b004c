import type { Environment } from "../environment";

// Hosts that name this machine, a private network, or a cloud metadata service.
const BLOCKED_HOST_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa"];
const BLOCKED_HOSTS = new Set(["localhost", "metadata", "metadata.google.internal", "instance-data"]);

function ipv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** Loopback, private, shared, link-local (including 169.254.169.254 metadata), multicast and reserved ranges. */
function isNonPublicIpv4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a! >= 224
  );
}

function isNonPublicIpv6(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (address === "::" || address === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped) return isNonPublicIpv4(ipv4(mapped)!);
  // The URL parser writes mapped addresses in hex: ::ffff:7f00:1.
  if (address.startsWith("::ffff:")) return true;
  return /^f[cd]/.test(address) || /^fe[89ab]/.test(address) || address.startsWith("ff");
}

const LOCAL_DEVELOPMENT_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Why a webhook URL is refused, or null when it is acceptable. `live` takes only
 * https to public hosts (no loopback, private, link-local or metadata addresses);
 * `test` also takes http(s) to this machine (127.0.0.1, localhost) for local development.
 */
export function webhookUrlProblem(raw: string, environment: Environment): string | null {
  if (!URL.canParse(raw)) return "must be an absolute URL";
  const url = new URL(raw);
  if (url.username || url.password) return "must not contain credentials";
  const host = url.hostname.toLowerCase();
  if (environment === "test" && LOCAL_DEVELOPMENT_HOSTS.has(host) && (url.protocol === "http:" || url.protocol === "https:")) return null;
  if (url.protocol !== "https:") return environment === "test" ? "must use https (or http to 127.0.0.1 / localhost in test)" : "must use https";
  const v4 = ipv4(host);
  if ((v4 && isNonPublicIpv4(v4)) || (host.startsWith("[") && isNonPublicIpv6(host))) {
    return "must not point to a loopback, private, link-local or metadata address";
  }
  if (BLOCKED_HOSTS.has(host) || BLOCKED_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !host.includes(".")) {
    return "must name a public host";
  }
  return null;
}
