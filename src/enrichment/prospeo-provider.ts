import * as z from "zod";
import { firstAndLast } from "../contact-info/names";
import { type ContactProvider, type FindResult, notFound } from "./provider";
import { fetchJson, type UpstreamCall } from "./upstream";
import type { FinderVendor } from "./vendor";

// What Prospeo documents of its answer, as much as we read (other fields pass).
const emailFinderAnswer = z.object({
  error: z.boolean().optional(),
  response: z.object({ email: z.string().nullish(), email_status: z.string().nullish() }).nullish(),
});

// Prospeo's own check (VALID or CATCH_ALL) sets our confidence; the status is our verifiers'.
const CONFIDENCE: Record<string, number> = { VALID: 85, CATCH_ALL: 55 };

/**
 * Prospeo Email Finder (POST /email-finder): a name and a company (domain
 * preferred, or name). Errors come as `{ "error": true, "message": … }`: 400 with
 * NO_RESULT when it finds nothing (or INVALID_PARAM for a company it refuses:
 * either way it has nothing for this person), 401 for a bad key, 429 for its rate
 * limit, with `x-minute-reset-seconds` saying when it lifts.
 */
export function prospeoProvider(
  apiKey: string,
  baseUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): ContactProvider {
  const call = { ...upstream, provider: "prospeo" };
  return {
    name: "prospeo",
    async find({ person, fields }): Promise<FindResult> {
      const name = firstAndLast(person);
      const company = person.companyDomain ?? person.companyName;
      if (!fields.includes("email") || !name || !company) return notFound();
      const request = new Request(`${baseUrl}/email-finder`, {
        method: "POST",
        headers: { "x-key": apiKey, accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({ first_name: name.first, last_name: name.last, company }),
      });
      const body = await fetchJson(call, request, emailFinderAnswer, {
        notFound: [400],
        retryAfterHeaders: ["retry-after", "x-minute-reset-seconds"],
      });
      const email = body?.error === false ? body.response?.email?.toLowerCase() : undefined;
      if (!email) return notFound();
      return {
        emails: [
          {
            address: email,
            type: "work",
            status: "unverified",
            confidence: CONFIDENCE[body?.response?.email_status ?? ""] ?? 40,
            source: "prospeo",
          },
        ],
        phones: [],
      };
    },
  };
}

export const prospeo: FinderVendor = {
  name: "prospeo",
  kind: "finder",
  secret: "PROSPEO_API_KEY",
  urlVariable: "PROSPEO_API_URL",
  defaultUrl: "https://api.prospeo.io",
  // Enrich Person: 5/s and 300/min on Starter and Growth (Pro: 30/s, 1,800/min; 2026-11).
  limits: [
    { limit: 5, seconds: 1 },
    { limit: 300, seconds: 60 },
  ],
  // What one call costs us, USD, at its list price (Starter plan, $39 a month for 1,000 credits, 2026-11); VENDOR_PRICES overrides.
  pricePerCall: 0.039,
  create: prospeoProvider,
};
