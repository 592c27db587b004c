// The finder vendors (Hunter, PDL, Apollo, Prospeo), as each documents its answers; the
// scenario is chosen by the company domain (the table in upstreams.ts).
import { json, sleepSlow, trickling } from "./answer.ts";
import { FAKE_KEYS } from "./fake-keys.ts";

const flakySeen = new Set<string>();
const busySeen = new Set<string>();

/** A `-busy.example` person's first look-up at a vendor: true once, then false. */
function busyOnce(domain: string, person: string): boolean {
  if (!domain.endsWith("-busy.example") || busySeen.has(person)) return false;
  busySeen.add(person);
  return true;
}

/** The scenarios every finder acts out alike (down, flaky, busy, slow, garbage); null when the domain asks none. */
async function vendorBehaviour(domain: string, person: string): Promise<Response | null> {
  if (domain.endsWith("-down.example")) return json({ errors: [{ id: "down" }] }, 503);
  if (domain.endsWith("-flaky.example") && !flakySeen.has(person)) {
    flakySeen.add(person);
    return json({ errors: [{ id: "oops" }] }, 500);
  }
  if (busyOnce(domain, person)) return json({ errors: [{ id: "too_many_requests" }] }, 429, { "retry-after": "600" });
  if (domain.endsWith("-slow.example")) await sleepSlow();
  if (domain.endsWith("-garbage.example")) return new Response("<html>not json", { status: 200 });
  if (domain.endsWith("-html.example"))
    return new Response("<!doctype html><title>Down for maintenance</title>", {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  if (domain.endsWith("-shape.example")) return json({ results: [{ mail: "someone@shape.example" }], data: "moved" });
  if (domain.endsWith("-trickle.example")) return trickling();
  return null;
}

export async function hunter(request: Request, url: URL): Promise<Response> {
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

export async function pdl(request: Request, url: URL): Promise<Response> {
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

export async function apollo(request: Request, url: URL): Promise<Response> {
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

export async function prospeo(request: Request): Promise<Response> {
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
