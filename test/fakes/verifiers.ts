// The verifiers (ZeroBounce, NeverBounce), with each vendor's documented answers; the
// scenario is chosen by the address (the table in upstreams.ts).
import { json, trickling } from "./answer.ts";
import { FAKE_KEYS } from "./fake-keys.ts";

/** The scenario an address asks a verifier to act out (see the table in upstreams.ts). */
function verifierScenario(address: string): string {
  const [local = "", domain = ""] = address.toLowerCase().split("@");
  const suffix = /-([a-z]+)\.example$/.exec(domain)?.[1];
  if (suffix) return suffix;
  return ["info", "sales"].includes(local.split(".")[0] ?? "") ? "role" : "valid";
}

export function zeroBounce(url: URL): Response {
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
    case "verifiershtml":
      return new Response("<!doctype html><title>Sign in</title>", { headers: { "content-type": "text/html" } });
    case "verifiersshape":
      return json({ result: { verdict: "ok" }, status: ["valid"] });
    case "verifierstrickle":
      return trickling();
    default:
      return answer("valid");
  }
}

export function neverBounce(url: URL): Response {
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
    case "verifiershtml":
      return new Response("<!doctype html><title>Sign in</title>", { headers: { "content-type": "text/html" } });
    case "verifiersshape":
      return json({ status: "success", result: 7, flags: "role_account" });
    case "verifierstrickle":
      return trickling();
    default:
      return answer("valid");
  }
}
