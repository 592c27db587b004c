// The vendors of the live waterfall for `npm run bench:live`, on loopback, in Node (outside the
// measured workerd): the finders (Hunter, People Data Labs, Apollo, Prospeo), the verifiers
// (ZeroBounce, NeverBounce) and the DNS-over-HTTPS resolver the pattern finder asks. Each answers
// with its documented shapes (as test/fakes/upstreams.ts does for the tests), after a latency
// drawn from a seeded log-normal distribution, and enforces its rate limit as the vendor does:
// a call past it is refused at once, with the vendor's own status and retry header (Hunter 403
// with Retry-After, PDL 429 with x-ratelimit-reset, Prospeo 429 with x-minute-reset-seconds,
// NeverBounce 200 with throttle_triggered, the others 429 with Retry-After).
// Which vendor knows a person is a seeded draw per person and vendor, in the proportions given.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const FINDERS = ["hunter", "pdl", "apollo", "prospeo"] as const;
export const VENDORS = [...FINDERS, "zerobounce", "neverbounce"] as const;
export type Vendor = (typeof VENDORS)[number];
export type Finder = (typeof FINDERS)[number];
export interface Window {
  limit: number;
  seconds: number;
}

export interface FakeVendorOptions {
  seed: number;
  latency: { p50Ms: number; p99Ms: number };
  /** Each vendor's enforced limits (all must hold); the service is told the same (VENDOR_RATE_LIMITS). */
  limits: Record<Vendor, readonly Window[]>;
  /** The share of people each finder knows (0..1). */
  knows: Record<Finder, number>;
  /**
   * Instead of `knows`, each company domain's own shares: these rates dealt to the finders in an order
   * drawn per domain from the seed, so which finder knows a domain's people best differs by domain.
   */
  ratesByDomain?: readonly number[];
}

export interface VendorCounts {
  /** Calls answered (found or not). */
  answered: number;
  /** The people (or, for a verifier, addresses) those calls were about: the calls the waterfall needed, repeats aside. */
  distinct: number;
  /** Calls refused for the rate limit. */
  refused: number;
  /** The sum of the answered calls' latencies, ms. */
  latencyMs: number;
}

/** mulberry32: a small seeded PRNG, so every run draws the same latencies in the same order. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform draw in [0, 1) fixed by the text (FNV-1a), for "does this vendor know this person". */
function draw(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) / 4294967296;
}

// The standard normal's 0.99 quantile: a log-normal with median m and 99th percentile p has σ = ln(p/m) / Z99.
const Z99 = 2.326348;

export async function startFakeVendors(options: FakeVendorOptions) {
  const random = prng(options.seed);
  const sigma = Math.log(options.latency.p99Ms / options.latency.p50Ms) / Z99;
  const latency = () => {
    // Box–Muller from two uniforms.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return options.latency.p50Ms * Math.exp(sigma * normal);
  };
  const counts = Object.fromEntries(
    VENDORS.map((v) => [v, { answered: 0, distinct: 0, refused: 0, latencyMs: 0 }]),
  ) as Record<Vendor, VendorCounts>;
  // Whom each vendor has answered about since the last reset: a second call about the same one is a repeat.
  const seen = Object.fromEntries(VENDORS.map((v) => [v, new Set<string>()])) as Record<Vendor, Set<string>>;
  // Each vendor's admitted calls' times, to judge its windows (sliding, as the strictest vendors count).
  const admitted = Object.fromEntries(VENDORS.map((v) => [v, [] as number[]])) as Record<Vendor, number[]>;
  let inFlight = 0;
  let peakInFlight = 0;

  /** null when the call is admitted; else the seconds until it would be. */
  function refusal(vendor: Vendor, now: number): number | null {
    const times = admitted[vendor];
    const longest = Math.max(...options.limits[vendor].map((w) => w.seconds)) * 1000;
    while (times.length > 0 && times[0]! <= now - longest) times.shift();
    let waitMs = 0;
    for (const { limit, seconds } of options.limits[vendor]) {
      const inWindow = times.filter((t) => t > now - seconds * 1000);
      if (inWindow.length >= limit)
        waitMs = Math.max(waitMs, inWindow[inWindow.length - limit]! + seconds * 1000 - now);
    }
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    times.push(now);
    return null;
  }

  const byDomain = new Map<string, Record<Finder, number>>();
  /** The share of a domain's people each finder knows: ratesByDomain dealt in a seeded order per domain. */
  const sharesAt = (domain: string): Record<Finder, number> => {
    const rates = options.ratesByDomain;
    if (!rates) return options.knows;
    let shares = byDomain.get(domain);
    if (!shares) {
      const order = [...FINDERS].sort(
        (a, b) => draw(`${options.seed}:${domain}:${a}`) - draw(`${options.seed}:${domain}:${b}`),
      );
      shares = Object.fromEntries(order.map((finder, i) => [finder, rates[i % rates.length] ?? 0])) as Record<
        Finder,
        number
      >;
      byDomain.set(domain, shares);
    }
    return shares;
  };
  const knows = (vendor: Finder, first: string, last: string, domain: string) =>
    draw(`${options.seed}:${vendor}:${first}.${last}`) < sharesAt(domain)[vendor];

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const [, prefix = ""] = url.pathname.split("/");
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(body));
    };
    if (prefix === "doh") {
      // Cloudflare's resolver is not a rate-limited vendor: a quick MX answer.
      const name = url.searchParams.get("name") ?? "";
      await new Promise((resolve) => setTimeout(resolve, 20));
      return send(200, { Status: 0, Answer: [{ name, type: 15, TTL: 3600, data: `10 mx.${name}.` }] });
    }
    if (!(VENDORS as readonly string[]).includes(prefix)) return send(404, { error: "no such fake vendor" });
    const vendor = prefix as Vendor;
    const body = request.method === "POST" ? await readBody(request) : {};
    const wait = refusal(vendor, Date.now());
    if (wait !== null) {
      counts[vendor].refused++;
      return send(...refusal429(vendor, wait));
    }
    const ms = latency();
    counts[vendor].answered++;
    const about = JSON.stringify([...url.searchParams.values(), ...Object.values(body)]);
    if (!seen[vendor].has(about)) {
      seen[vendor].add(about);
      counts[vendor].distinct++;
    }
    counts[vendor].latencyMs += ms;
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, ms));
    inFlight--;
    const q = (name: string) => url.searchParams.get(name) ?? "";
    switch (vendor) {
      case "hunter": {
        const [first, last, domain] = [q("first_name"), q("last_name"), q("domain") || q("company")];
        if (!knows("hunter", first, last, domain)) return send(200, { data: { email: null, score: null }, meta: {} });
        return send(200, {
          data: {
            email: `${first}.${last}@${domain}`,
            score: 92,
            verification: { status: "valid" },
            phone_number: null,
          },
          meta: {},
        });
      }
      case "pdl": {
        const [first, last, company] = [q("first_name"), q("last_name"), q("company")];
        if (!knows("pdl", first, last, company)) return send(404, { status: 404, error: { type: "not_found" } });
        return send(200, {
          status: 200,
          likelihood: 8,
          data: {
            work_email: `${first}.${last}@${company}`,
            mobile_phone: "+1 (202) 555-0199",
            phone_numbers: ["+12025550188"],
          },
        });
      }
      case "apollo": {
        const [first, last, domain] = [q("first_name"), q("last_name"), q("domain")];
        if (!knows("apollo", first, last, domain)) return send(200, { person: null });
        return send(200, {
          person: {
            first_name: first,
            last_name: last,
            email: `${first}.${last}@${domain}`,
            email_status: "verified",
            phone_numbers: [{ raw_number: "+1 202-555-0142", sanitized_number: "+12025550142", type: "work_direct" }],
          },
        });
      }
      case "prospeo": {
        const { first_name: first = "", last_name: last = "", company = "" } = body;
        if (!knows("prospeo", first, last, company)) return send(400, { error: true, message: "NO_RESULT" });
        return send(200, {
          error: false,
          response: { email: `${first}.${last}@${company}`, email_status: "VALID", domain: company },
        });
      }
      case "zerobounce":
        return send(200, { address: q("email"), status: "valid", sub_status: "", free_email: false, mx_found: "true" });
      case "neverbounce":
        return send(200, { status: "success", result: "valid", flags: ["has_dns", "has_dns_mx"], execution_time: 285 });
    }
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  // The service keeps up to 6 connections per invocation, many invocations at once.
  server.maxConnections = 10_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The service's vars that point every vendor here: each one's base URL (*_API_URL) and a key for it. */
    vars: {
      DOH_URL: `${url}/doh`,
      HUNTER_API_URL: `${url}/hunter`,
      PDL_API_URL: `${url}/pdl`,
      APOLLO_API_URL: `${url}/apollo`,
      PROSPEO_API_URL: `${url}/prospeo`,
      ZEROBOUNCE_API_URL: `${url}/zerobounce`,
      NEVERBOUNCE_API_URL: `${url}/neverbounce`,
      HUNTER_API_KEY: "bench-hunter",
      PDL_API_KEY: "bench-pdl",
      APOLLO_API_KEY: "bench-apollo",
      PROSPEO_API_KEY: "bench-prospeo",
      ZEROBOUNCE_API_KEY: "bench-zerobounce",
      NEVERBOUNCE_API_KEY: "bench-neverbounce",
    },
    /** Calls so far per vendor, and the most vendor calls in flight at once; `reset` starts them again. */
    counts: () => ({ vendors: structuredClone(counts), peakInFlight }),
    reset() {
      for (const vendor of VENDORS) {
        counts[vendor] = { answered: 0, distinct: 0, refused: 0, latencyMs: 0 };
        seen[vendor].clear();
      }
      peakInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}

/** The vendor's own way to refuse a call past its limit: status, body, headers. */
function refusal429(vendor: Vendor, seconds: number): [number, unknown, Record<string, string>] {
  const retryAfter = { "retry-after": String(seconds) };
  switch (vendor) {
    case "hunter":
      return [403, { errors: [{ id: "too_many_requests", code: 403 }] }, retryAfter];
    case "pdl":
      return [
        429,
        { status: 429, error: { type: "rate_limit_error" } },
        { "x-ratelimit-reset": new Date(Date.now() + seconds * 1000).toUTCString() },
      ];
    case "prospeo":
      return [429, { error: true, message: "RATE_LIMITED" }, { "x-minute-reset-seconds": String(seconds) }];
    case "neverbounce":
      return [200, { status: "throttle_triggered", message: "Too many requests in a short amount of time" }, {}];
    default:
      return [429, { error: "too many requests" }, retryAfter];
  }
}
