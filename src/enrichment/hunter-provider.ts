import * as z from "zod";
import { firstAndLast } from "../contact-info/names";
import { toE164 } from "../contact-info/phone";
import { type ContactProvider, type FindResult, notFound } from "./provider";
import { fetchJson, type UpstreamCall } from "./upstream";
import type { FinderVendor } from "./vendor";

// What Hunter documents of its answer, as much as we read (other fields pass).
const emailFinderAnswer = z.object({
  data: z
    .object({
      email: z.string().nullish(),
      score: z.number().nullish(),
      phone_number: z.string().nullish(),
      verification: z.object({ status: z.string().nullish() }).nullish(),
    })
    .nullish(),
});

// Hunter's own check of the address it found: one it calls invalid is not
// returned; any other is `unverified` until our verifiers judge it.
const REJECTED = new Set(["invalid", "disposable"]);

/**
 * Hunter Email Finder (GET /v2/email-finder): a domain or company plus a name,
 * or a LinkedIn handle. Hunter uses 403 for its rate limit and 429 for an
 * exhausted plan, 202/222 for "verification still running": all retried later.
 * 451 means Hunter must not process this person: treated as not found.
 */
export function hunterProvider(
  apiKey: string,
  baseUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): ContactProvider {
  const call = { ...upstream, provider: "hunter" };
  return {
    name: "hunter",
    async find({ person, fields }): Promise<FindResult> {
      // Hunter prefers the domain when given both.
      const company: Record<string, string> | null = person.companyDomain
        ? { domain: person.companyDomain }
        : person.companyName
          ? { company: person.companyName }
          : null;
      const name = firstAndLast(person);
      if (!fields.includes("email") || !(person.linkedinSlug || (company && name))) return notFound();
      const params = new URLSearchParams(company ?? {});
      if (person.linkedinSlug) params.set("linkedin_handle", person.linkedinSlug);
      if (name) {
        params.set("first_name", name.first);
        params.set("last_name", name.last);
      }
      const request = new Request(`${baseUrl}/v2/email-finder?${params}`, {
        headers: { "x-api-key": apiKey, accept: "application/json" },
      });
      const body = await fetchJson(call, request, emailFinderAnswer, {
        notFound: [404, 451],
        transient: [202, 222, 403],
        rateLimited: [403, 429],
      });
      const data = body?.data;
      if (!data?.email || REJECTED.has(data.verification?.status ?? "")) return notFound();
      const score = clampConfidence(data.score);
      const phone = data.phone_number ? toE164(data.phone_number) : null;
      return {
        emails: [
          {
            address: data.email.toLowerCase(),
            type: "work",
            status: "unverified",
            confidence: score,
            source: "hunter",
          },
        ],
        phones:
          phone && fields.includes("phone")
            ? [{ number: phone, type: "unknown", confidence: score, source: "hunter" }]
            : [],
      };
    },
  };
}

const clampConfidence = (value: number | null | undefined): number =>
  typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.min(100, Math.round(value))) : 50;

export const hunter: FinderVendor = {
  name: "hunter",
  kind: "finder",
  secret: "HUNTER_API_KEY",
  urlVariable: "HUNTER_API_URL",
  defaultUrl: "https://api.hunter.io",
  // Email Finder: 15/s and 500/min (Hunter's API reference, 2026-11; its Email Verifier, which we do
  // not call, has 10/s and 300/min).
  limits: [
    { limit: 15, seconds: 1 },
    { limit: 500, seconds: 60 },
  ],
  // What one call costs us, USD, at its list price (Growth plan, $149 a month for 5,000 searches, 2026-11); VENDOR_PRICES overrides.
  pricePerCall: 0.034,
  create: hunterProvider,
};
