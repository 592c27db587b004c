import * as z from "zod";
import { PermanentProviderError, TransientProviderError } from "./provider";
import { fetchJson, type UpstreamCall } from "./upstream";
import type { VerifierVendor } from "./vendor";
import type { EmailVerifier, Verdict, VerdictResult } from "./verifier";

// What NeverBounce documents of its answer, as much as we read (other fields pass).
const checkAnswer = z.object({
  /** `success`, or the failure: auth_failure, bad_referrer, throttle_triggered, temp_unavail, general_failure. */
  status: z.string().optional(),
  result: z.string().optional(),
  flags: z.array(z.string()).optional(),
});

const RESULT: Record<string, VerdictResult> = {
  valid: "valid",
  catchall: "catch_all",
  unknown: "unknown",
  invalid: "invalid",
  disposable: "invalid",
};
// NeverBounce answers its errors with HTTP 200 and a status: these may pass.
const TRANSIENT_STATUSES = new Set(["throttle_triggered", "temp_unavail", "general_failure"]);

/** NeverBounce single check (GET /v4/single/check). */
export function neverBounceVerifier(
  apiKey: string,
  baseUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): EmailVerifier {
  const call = { ...upstream, provider: "neverbounce" };
  return {
    name: "neverbounce",
    async verify(address): Promise<Verdict> {
      const params = new URLSearchParams({ key: apiKey, email: address });
      const body = await fetchJson(call, new Request(`${baseUrl}/v4/single/check?${params}`), checkAnswer);
      const status = body?.status ?? "";
      if (status !== "success") {
        if (TRANSIENT_STATUSES.has(status)) throw new TransientProviderError(`neverbounce: ${status}`);
        throw new PermanentProviderError(`neverbounce: ${status || "answered without a status"}`);
      }
      return { result: RESULT[body?.result ?? ""] ?? "unknown", role: body?.flags?.includes("role_account") ?? false };
    },
  };
}

export const neverbounce: VerifierVendor = {
  name: "neverbounce",
  kind: "verifier",
  secret: "NEVERBOUNCE_API_KEY",
  urlVariable: "NEVERBOUNCE_API_URL",
  defaultUrl: "https://api.neverbounce.com",
  // Single Check publishes no figure; 10/s is an assumption, answered by its throttle if wrong.
  limits: [{ limit: 10, seconds: 1 }],
  // What one call costs us, USD, at its list price ($80 for 10,000 verifications, 2026-11); VENDOR_PRICES overrides.
  pricePerCall: 0.008,
  create: neverBounceVerifier,
};
