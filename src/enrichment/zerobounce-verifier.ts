import * as z from "zod";
import { PermanentProviderError } from "./provider";
import { fetchJson, type UpstreamCall } from "./upstream";
import type { VerifierVendor } from "./vendor";
import type { EmailVerifier, Verdict, VerdictResult } from "./verifier";

// What ZeroBounce documents of its answer, as much as we read (other fields pass).
const validateAnswer = z.object({
  status: z.string().optional(),
  sub_status: z.string().nullish(),
  /** Set instead of a status for an invalid key or an account out of credits (with HTTP 200). */
  error: z.string().optional(),
});

// ZeroBounce's statuses → ours. `spamtrap`, `abuse` (known complainers) and
// `do_not_mail` are never returned, except a do_not_mail role mailbox, which is
// deliverable and flagged as a role.
const STATUS: Record<string, VerdictResult> = {
  valid: "valid",
  "catch-all": "catch_all",
  unknown: "unknown",
  invalid: "invalid",
  spamtrap: "invalid",
  abuse: "invalid",
  do_not_mail: "invalid",
};
const ROLE_SUB_STATUSES = new Set(["role_based", "role_based_catch_all", "role_based_accept_all"]);

/**
 * ZeroBounce (GET /v2/validate). Verdicts come as HTTP 200 with `status` and
 * `sub_status`; a bad key or no credits as 200 with `error`. Too many requests
 * answer 429, retried later.
 */
export function zeroBounceVerifier(
  apiKey: string,
  baseUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): EmailVerifier {
  const call = { ...upstream, provider: "zerobounce" };
  return {
    name: "zerobounce",
    async verify(address): Promise<Verdict> {
      const params = new URLSearchParams({ api_key: apiKey, email: address, ip_address: "" });
      const body = await fetchJson(call, new Request(`${baseUrl}/v2/validate?${params}`), validateAnswer);
      if (!body?.status)
        throw new PermanentProviderError(
          `zerobounce: ${body?.error ? "refused the request" : "answered without a status"}`,
        );
      const subStatus = body.sub_status ?? "";
      const role = ROLE_SUB_STATUSES.has(subStatus);
      if (body.status === "do_not_mail" && role)
        return { result: subStatus === "role_based" ? "valid" : "catch_all", role };
      return { result: STATUS[body.status] ?? "unknown", role };
    },
  };
}

export const zerobounce: VerifierVendor = {
  name: "zerobounce",
  kind: "verifier",
  secret: "ZEROBOUNCE_API_KEY",
  urlVariable: "ZEROBOUNCE_API_URL",
  defaultUrl: "https://api.zerobounce.net",
  // Validate V2: 50,000 per 10 s (a 1-minute block past it; 2026-11).
  limits: [{ limit: 50_000, seconds: 10 }],
  // What one call costs us, USD, at its list price ($80 for 10,000 verifications, 2026-11); VENDOR_PRICES overrides.
  pricePerCall: 0.008,
  create: zeroBounceVerifier,
};
