// Stand-ins for the services outside our system, at the HTTP boundary: every
// outbound fetch of the Worker under test lands here (miniflare's outboundService,
// see vitest.config.ts). They run in Node, outside workerd.
//
// Behaviour is chosen by the input, so tests read like scenarios:
//   DNS (doh.test):  *.nxdomain.example → NXDOMAIN; nullmx.example → null MX; servfail.example → SERVFAIL; else an MX.
//   Hunter (hunter.test) and PDL (pdl.test), by company domain:
//     *-notfound.example → not found       *-ratelimit.example → rate limited with a retry time
//     *-down.example → 503                 *-flaky.example → 500 once per person, then found
//     *-slow.example → answers after 1 s   *-garbage.example → 200 with a body that is not JSON
//     *-busy.example → 429 with Retry-After: 600 once per person, then found
//   Hunter alone: *-hunterinvalid.example → found, but Hunter's own check says invalid
//   The vendors that give phones (PDL, Apollo): *-phonebusy.example → 429 with Retry-After: 600, always
//     (Hunter and Prospeo find the email, never a phone). Apollo and Prospeo act out *-busy.example too.
//   anything else → found.
//   Apollo (apollo.test) and Prospeo (prospeo.test), by company domain: *-notfound.example → no match
//   (Apollo: 200 with person null; Prospeo: 400 NO_RESULT); *-ratelimit.example → 429 (Apollo: Retry-After: 30;
//   Prospeo: x-minute-reset-seconds: 42); *-down.example → 503; anything else → found.
//   Verifiers ZeroBounce (zerobounce.test) and NeverBounce (neverbounce.test), by the address, with each
//   vendor's documented answers:
//     *@*-undeliverable.example → invalid        *@*-disposable.example → disposable
//     *@*-spamtrap.example → spam trap           *@*-catchall.example → catch-all
//     *@*-unknown.example → unknown              info@…, sales@… (or info.…@, sales.…@) → a role mailbox
//     *@*-zbdown.example → ZeroBounce 503 (NeverBounce answers)
//     *@*-verifiersdown.example → ZeroBounce 503, NeverBounce temp_unavail
//     *@*-throttled.example → ZeroBounce 429, NeverBounce throttle_triggered
//     anything else → valid.
//   Webhook receivers (hooks.test, and 127.0.0.1 as in local development), by path:
//     /ok/… → 204   /fail-once/… → 500, then 200   /always-500/… → 500   /slow/… → answers after 1 s
//     /held/… → answers (204) only once the test releases it: POST https://hooks.test/__release/held/…
//     /redirect/… → 307 to a metadata address (must not be followed)
// GET https://<host>/__calls answers how many calls each host has had, for cache tests;
// GET https://<host>/__mentions/<text> how many requests to any host had <text> in their URL or body
//   (with ?at=<host>, only those to that host: a count other files' batches running alongside cannot move);
// GET https://hooks.test/__deliveries/<path> the deliveries a receiver path got.
// "Slow" is twice the tests' 500 ms timeouts (PROVIDER_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS), and no
// more: a test that needs a receiver to wait for an event holds it (/held/) instead of sleeping.

export const FAKE_KEYS = {
  hunter: "test-hunter-key",
  pdl: "test-pdl-key",
  apollo: "test-apollo-key",
  prospeo: "test-prospeo-key",
  zerobounce: "test-zerobounce-key",
  neverbounce: "test-neverbounce-key",
};

const calls = new Map<string, number>();
// Each request's URL and body, for tests that must prove no call named someone (the last 10,000).
const requestTexts: string[] = [];
const MAX_REQUEST_TEXTS = 10_000;
const flakySeen = new Set<string>();
const busySeen = new Set<string>();

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const SLOW_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `-busy.example` person's first look-up at a vendor: true once, then false. */
function busyOnce(domain: string, person: string): boolean {
  if (!domain.endsWith("-busy.example") || busySeen.has(person)) return false;
  busySeen.add(person);
  return true;
}

async function vendorBehaviour(domain: string, person: string): Promise<Response | null> {
  if (domain.endsWith("-down.example")) return json({ errors: [{ id: "down" }] }, 503);
  if (domain.endsWith("-flaky.example") && !flakySeen.has(person)) {
    flakySeen.add(person);
    return json({ errors: [{ id: "oops" }] }, 500);
  }
  if (busyOnce(domain, person)) return json({ errors: [{ id: "too_many_requests" }] }, 429, { "retry-after": "600" });
  if (domain.endsWith("-slow.example")) await sleep(SLOW_MS);
  if (domain.endsWith("-garbage.example")) return new Response("<html>not json", { status: 200 });
  return null;
}

function dns(url: URL): Response {
  const name = url.searchParams.get("name") ?? "";
  if (name.endsWith("nxdomain.example")) return json({ Status: 3 });
  if (name === "servfail.example") return json({ Status: 2 });
  if (name === "nullmx.example") return json({ Status: 0, Answer: [{ name, type: 15, TTL: 3600, data: "0 ." }] });
  return json({ Status: 0, Answer: [{ name, type: 15, TTL: 3600, data: `10 mx.${name}.` }] });
}

async function hunter(request: Request, url: URL): Promise<Response> {
  if (request.headers.get("x-api-key") !== FAKE_KEYS.hunter)
    return json({ errors: [{ id: "authentication_failed", code: 401 }] }, 401);
  const domain = url.searchParams.get("domain") ?? url.searchParams.get("company") ?? "";
  const first = url.searchParams.get("first_name") ?? "";
  const last = url.searchParams.get("last_name") ?? "";
  // Hunter signals its rate limit with 403.
  if (domain.endsWith("-ratelimit.example"))
    return json({ errors: [{ id: "too_many_requests", code: 403 }] }, 403, { "retry-after": "1" });
  const special = await vendorBehaviour(domain, `hunter:${first}.${last}@${domain}`);
  if (special) return special;
  if (domain.endsWith("-notfound.example") || !first || !last)
    return json({ data: { email: null, score: null }, meta: {} });
  // Hunter's own check of the address it found: *-hunterinvalid.example says invalid.
  const verification = { status: domain.endsWith("-hunterinvalid.example") ? "invalid" : "valid" };
  return json({
    data: { email: `${first}.${last}@${domain}`, score: 92, verification, phone_number: null },
    meta: {},
  });
}

async function pdl(request: Request, url: URL): Promise<Response> {
  if (request.headers.get("x-api-key") !== FAKE_KEYS.pdl)
    return json({ status: 401, error: { type: "authentication_error" } }, 401);
  const company = url.searchParams.get("company") ?? "";
  const first = url.searchParams.get("first_name") ?? "";
  const last = url.searchParams.get("last_name") ?? "";
  if (company.endsWith("-ratelimit.example")) {
    return json({ status: 429, error: { type: "rate_limit_error" } }, 429, {
      "x-ratelimit-reset": new Date(Date.now() + 2_000).toISOString(),
    });
  }
  if (company.endsWith("-phonebusy.example"))
    return json({ status: 429, error: { type: "rate_limit_error" } }, 429, { "retry-after": "600" });
  const special = await vendorBehaviour(company, `pdl:${first}.${last}@${company}`);
  if (special) return special;
  if (company.endsWith("-notfound.example") || !company)
    return json(
      { status: 404, error: { type: "not_found", message: "No records were found matching your request" } },
      404,
    );
  return json({
    status: 200,
    likelihood: 8,
    data: {
      work_email: `${first}.${last}@${company}`,
      personal_emails: [`${first}${last}@mail.example`],
      mobile_phone: "+1 (202) 555-0199",
      phone_numbers: ["+12025550199", "+12025550188"],
    },
  });
}

async function apollo(request: Request, url: URL): Promise<Response> {
  if (request.method !== "POST") return json({ error: "method not allowed" }, 405);
  if (request.headers.get("x-api-key") !== FAKE_KEYS.apollo) return json({ error: "Invalid access credentials." }, 401);
  const domain = url.searchParams.get("domain") ?? "";
  const first = url.searchParams.get("first_name") ?? "";
  const last = url.searchParams.get("last_name") ?? "";
  if (domain.endsWith("-ratelimit.example"))
    return json({ error: "The maximum number of api calls allowed" }, 429, { "retry-after": "30" });
  if (domain.endsWith("-phonebusy.example") || busyOnce(domain, `apollo:${first}.${last}@${domain}`))
    return json({ error: "The maximum number of api calls allowed" }, 429, { "retry-after": "600" });
  if (domain.endsWith("-down.example")) return json({ error: "unavailable" }, 503);
  if (domain.endsWith("-notfound.example") || !domain || !first) return json({ person: null });
  return json({
    person: {
      first_name: first,
      last_name: last,
      email: `${first}.${last}@${domain}`,
      email_status: "verified",
      phone_numbers: [{ raw_number: "+1 202-555-0142", sanitized_number: "+12025550142", type: "work_direct" }],
    },
  });
}

async function prospeo(request: Request): Promise<Response> {
  if (request.method !== "POST") return json({ error: true, message: "INVALID_REQUEST" }, 400);
  if (request.headers.get("x-key") !== FAKE_KEYS.prospeo) return json({ error: true, message: "INVALID_API_KEY" }, 401);
  const { first_name: first = "", last_name: last = "", company = "" } = await request.json<Record<string, string>>();
  if (company.endsWith("-ratelimit.example"))
    return json({ error: true, message: "RATE_LIMITED" }, 429, { "x-minute-reset-seconds": "42" });
  if (busyOnce(company, `prospeo:${first}.${last}@${company}`))
    return json({ error: true, message: "RATE_LIMITED" }, 429, { "retry-after": "600" });
  if (company.endsWith("-down.example")) return json({ error: true, message: "INTERNAL_ERROR" }, 503);
  if (company.endsWith("-notfound.example")) return json({ error: true, message: "NO_RESULT" }, 400);
  return json({
    error: false,
    response: { email: `${first}.${last}@${company}`, email_status: "VALID", domain: company },
  });
}

/** The scenario an address asks a verifier to act out (see the header). */
function verifierScenario(address: string): string {
  const [local = "", domain = ""] = address.toLowerCase().split("@");
  const suffix = /-([a-z]+)\.example$/.exec(domain)?.[1];
  if (suffix) return suffix;
  return ["info", "sales"].includes(local.split(".")[0] ?? "") ? "role" : "valid";
}

function zeroBounce(url: URL): Response {
  // ZeroBounce answers a bad key (or no credits) with 200 and an error, not a status.
  if (url.searchParams.get("api_key") !== FAKE_KEYS.zerobounce)
    return json({ error: "Invalid API key or your account ran out of credits" });
  const address = url.searchParams.get("email") ?? "";
  const answer = (status: string, sub_status = "") =>
    json({ address, status, sub_status, free_email: false, mx_found: "true" });
  switch (verifierScenario(address)) {
    case "undeliverable":
      return answer("invalid", "mailbox_not_found");
    case "disposable":
      return answer("do_not_mail", "disposable");
    case "spamtrap":
      return answer("spamtrap");
    case "catchall":
      return answer("catch-all");
    case "unknown":
      return answer("unknown", "greylisted");
    case "role":
      return answer("do_not_mail", "role_based");
    case "zbdown":
    case "verifiersdown":
      return json({ error: "unavailable" }, 503);
    case "throttled":
      return json({ error: "too many requests" }, 429, { "retry-after": "60" });
    default:
      return answer("valid");
  }
}

function neverBounce(url: URL): Response {
  // NeverBounce answers every error with 200 and a status other than success.
  if (url.searchParams.get("key") !== FAKE_KEYS.neverbounce)
    return json({ status: "auth_failure", message: "Invalid API key" });
  const answer = (result: string, flags: string[] = ["has_dns", "has_dns_mx"]) =>
    json({ status: "success", result, flags, suggested_correction: "", execution_time: 285 });
  switch (verifierScenario(url.searchParams.get("email") ?? "")) {
    case "undeliverable":
    case "spamtrap":
      return answer("invalid");
    case "disposable":
      return answer("disposable", ["disposable_email"]);
    case "catchall":
      return answer("catchall");
    case "unknown":
      return answer("unknown");
    case "role":
      return answer("valid", ["has_dns", "role_account"]);
    case "verifiersdown":
      return json({ status: "temp_unavail", message: "Service temporarily unavailable" });
    case "throttled":
      return json({ status: "throttle_triggered", message: "Too many requests in a short amount of time" });
    default:
      return answer("valid");
  }
}

const deliveries = new Map<string, { headers: Record<string, string>; body: string }[]>();
const failedOnce = new Set<string>();
// Held receiver paths: each waiting request's release, until the test releases the path.
const held = new Map<string, (() => void)[]>();
const released = new Set<string>();

async function webhookReceiver(request: Request, url: URL): Promise<Response> {
  if (url.pathname.startsWith("/__deliveries/"))
    return json(deliveries.get(url.pathname.slice("/__deliveries".length)) ?? []);
  if (url.pathname.startsWith("/__release/")) {
    const path = url.pathname.slice("/__release".length);
    released.add(path);
    for (const release of held.get(path) ?? []) release();
    held.delete(path);
    return new Response(null, { status: 204 });
  }
  // The body is read before the list is, so deliveries arriving together are all kept.
  const delivery = { headers: Object.fromEntries(request.headers), body: await request.text() };
  deliveries.set(url.pathname, [...(deliveries.get(url.pathname) ?? []), delivery]);
  if (url.pathname.startsWith("/fail-once/") && !failedOnce.has(url.pathname)) {
    failedOnce.add(url.pathname);
    return new Response("try again", { status: 500 });
  }
  if (url.pathname.startsWith("/always-500/")) return new Response("broken", { status: 500 });
  if (url.pathname.startsWith("/redirect/"))
    return new Response(null, { status: 307, headers: { location: "http://169.254.169.254/latest/meta-data" } });
  if (url.pathname.startsWith("/slow/")) await sleep(SLOW_MS);
  if (url.pathname.startsWith("/held/") && !released.has(url.pathname))
    await new Promise<void>((resolve) => held.set(url.pathname, [...(held.get(url.pathname) ?? []), resolve]));
  return new Response(null, { status: 204 });
}

/**
 * How many requests to `host` had `text` in their URL or body: a count of one test's own calls
 * (name a text only it sends), which the batches of files running alongside cannot move.
 */
export const callsMentioning = async (host: string, text: string): Promise<number> =>
  (
    await (
      await fetch(`https://${host}/__mentions/${encodeURIComponent(text)}?at=${host}`)
    ).json<{ requests: number }>()
  ).requests;

export async function fakeUpstreams(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/__calls") return json(Object.fromEntries(calls));
  if (url.pathname.startsWith("/__mentions/")) {
    const text = decodeURIComponent(url.pathname.slice("/__mentions/".length)).toLowerCase();
    const at = url.searchParams.get("at");
    const to = (request: string) => at === null || request.startsWith(`https://${at}/`);
    return json({ requests: requestTexts.filter((request) => to(request) && request.includes(text)).length });
  }
  calls.set(url.hostname, (calls.get(url.hostname) ?? 0) + 1);
  requestTexts.push(`${url.href} ${await request.clone().text()}`.toLowerCase());
  if (requestTexts.length > MAX_REQUEST_TEXTS) requestTexts.shift();
  switch (url.hostname) {
    case "doh.test":
      return dns(url);
    case "hunter.test":
      return hunter(request, url);
    case "pdl.test":
      return pdl(request, url);
    case "apollo.test":
      return apollo(request, url);
    case "prospeo.test":
      return prospeo(request);
    case "zerobounce.test":
      return zeroBounce(url);
    case "neverbounce.test":
      return neverBounce(url);
    case "hooks.test":
    case "127.0.0.1":
      return webhookReceiver(request, url);
    default:
      return new Response(`no fake for ${url.hostname}: tests reach no real network`, { status: 502 });
  }
}
