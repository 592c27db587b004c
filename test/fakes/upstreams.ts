// Stand-ins for the services outside our system, at the HTTP boundary: every
// outbound fetch of the Worker under test lands here (miniflare's outboundService,
// see vitest.config.ts). They run in Node, outside workerd. This file routes by host and
// counts; the vendors are finders.ts and verifiers.ts, the receivers webhook-receiver.ts.
//
// Behaviour is chosen by the input, so tests read like scenarios:
//   DNS (doh.test):  *.nxdomain.example → NXDOMAIN; nullmx.example → null MX; servfail.example → SERVFAIL; else an MX.
//     A and AAAA, for webhook hosts: N.N.N.N.nip.io → N.N.N.N; localtest.me → 127.0.0.1 and ::1;
//     private-v6.… → a public A and AAAA fd00::1; shared.… → 100.64.1.1; metadata.… → 169.254.169.254;
//     rebind.… → public on its first A lookup, 127.0.0.1 after; dnsdown.… → SERVFAIL; halfdown.… → A 10.0.0.9
//     and SERVFAIL for AAAA; else public addresses.
//   Hunter (hunter.test) and PDL (pdl.test), by company domain:
//     *-notfound.example → not found       *-ratelimit.example → rate limited with a retry time
//     *-down.example → 503                 *-flaky.example → 500 once per person, then found
//     *-slow.example → answers after 1 s   *-garbage.example → 200 with a body that is not JSON
//     *-busy.example → 429 with Retry-After: 600 once per person, then found
//     *-html.example → 200 with an HTML page   *-shape.example → 200 with JSON of an undocumented shape
//     *-trickle.example → 200 whose body trickles in past the timeout (answer.ts)
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
//     *@*-verifiershtml.example → both 200 with an HTML page; *@*-verifiersshape.example → both 200 with
//     JSON of an undocumented shape; *@*-verifierstrickle.example → both a body trickling past the timeout
//     anything else → valid.
//   Webhook receivers (hooks.test, *.hooks.example.com for live, and 127.0.0.1 as in local development), by path:
//     /ok/… → 204   /fail-once/… → 500, then 200   /always-500/… → 500   /slow/… → answers after 1 s
//     /held/… → answers (204) only once the test releases it: POST https://hooks.test/__release/held/…
//     /redirect/… → 307 to a metadata address (must not be followed)
//   CRMs: HubSpot (hubspot.test) in hubspot.ts, Salesforce (*.salesforce.test) in salesforce.ts: one
//   portal or org per token, made by the test, with their documented limits and errors.
// GET https://<host>/__calls answers how many calls each host has had, for cache tests;
// GET https://<host>/__mentions/<text> how many requests to any host had <text> in their URL or body
//   (with ?at=<host>, only those to that host: a count other files' batches running alongside cannot move);
// GET https://hooks.test/__deliveries/<path> the deliveries a receiver path got.
// "Slow" is twice the tests' 500 ms timeouts (answer.ts).
import { json } from "./answer.ts";
import { apollo, hunter, pdl, prospeo } from "./finders.ts";
import { hubspot } from "./hubspot.ts";
import { salesforce } from "./salesforce.ts";
import { neverBounce, zeroBounce } from "./verifiers.ts";
import { webhookReceiver } from "./webhook-receiver.ts";

export { FAKE_KEYS } from "./fake-keys.ts";

const calls = new Map<string, number>();
// Each request's URL and body, for tests that must prove no call named someone (the last 10,000).
const requestTexts: string[] = [];
const MAX_REQUEST_TEXTS = 10_000;

// What the fake resolver says a name's A and AAAA records are (see the table above).
const PUBLIC_V4 = "93.184.215.14";
const PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c";
const addressLookups = new Map<string, number>();

function addresses(name: string, type: "A" | "AAAA"): string[] {
  const nip = /^(\d+\.\d+\.\d+\.\d+)\.nip\.io$/.exec(name);
  if (nip) return type === "A" ? [nip[1]!] : [];
  if (name === "localtest.me" || name.endsWith(".localtest.me")) return type === "A" ? ["127.0.0.1"] : ["::1"];
  if (name.startsWith("private-v6.")) return type === "A" ? [PUBLIC_V4] : ["fd00::1"];
  if (name.startsWith("shared.")) return type === "A" ? ["100.64.1.1"] : [];
  if (name.startsWith("metadata.")) return type === "A" ? ["169.254.169.254"] : [];
  if (name.startsWith("halfdown.")) return ["10.0.0.9"];
  if (name.startsWith("rebind.")) {
    if (type === "AAAA") return [];
    const lookups = (addressLookups.get(name) ?? 0) + 1;
    addressLookups.set(name, lookups);
    return [lookups === 1 ? PUBLIC_V4 : "127.0.0.1"];
  }
  return type === "A" ? [PUBLIC_V4] : [PUBLIC_V6];
}

/** The fake resolver (DNS JSON API), also served on 127.0.0.1 for `wrangler dev` (fakes/loopback.ts). */
export function fakeDns(url: URL): Response {
  const name = url.searchParams.get("name") ?? "";
  const type = url.searchParams.get("type");
  if (name.startsWith("dnsdown.") || (name.startsWith("halfdown.") && type === "AAAA")) return json({ Status: 2 });
  if (type === "A" || type === "AAAA") {
    const code = type === "A" ? 1 : 28;
    return json({ Status: 0, Answer: addresses(name, type).map((data) => ({ name, type: code, TTL: 60, data })) });
  }
  if (name.endsWith("nxdomain.example")) return json({ Status: 3 });
  if (name === "servfail.example") return json({ Status: 2 });
  if (name === "nullmx.example") return json({ Status: 0, Answer: [{ name, type: 15, TTL: 3600, data: "0 ." }] });
  return json({ Status: 0, Answer: [{ name, type: 15, TTL: 3600, data: `10 mx.${name}.` }] });
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
  if (url.hostname.endsWith(".salesforce.test")) return salesforce(request, url);
  if (url.hostname.endsWith(".hooks.example.com")) return webhookReceiver(request, url);
  switch (url.hostname) {
    case "doh.test":
      return fakeDns(url);
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
    case "hubspot.test":
      return hubspot(request, url);
    case "hooks.test":
    case "127.0.0.1":
      return webhookReceiver(request, url);
    default:
      return new Response(`no fake for ${url.hostname}: tests reach no real network`, { status: 502 });
  }
}
