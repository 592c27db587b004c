import * as z from "zod";
import type { Email, Phone } from "../contact-info/contact";
import { firstAndLast } from "../contact-info/names";
import { toE164 } from "../contact-info/phone";
import { type ContactProvider, type FindResult, notFound } from "./provider";
import { fetchJson, type UpstreamCall } from "./upstream";
import type { FinderVendor } from "./vendor";

// What PDL documents of its answer, as much as we read. Contact fields are values on plans that
// include them and booleans ("a value exists") on those that do not, so each is type-checked before use.
const enrichAnswer = z.object({
  likelihood: z.number().nullish(),
  data: z
    .object({
      work_email: z.unknown().optional(),
      personal_emails: z.unknown().optional(),
      emails: z.unknown().optional(),
      mobile_phone: z.unknown().optional(),
      phone_numbers: z.unknown().optional(),
    })
    .nullish(),
});

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string")
    : typeof value === "string"
      ? [value]
      : [];

/**
 * People Data Labs Person Enrichment (GET /v5/person/enrich). 404 is "no match".
 * Its 429 carries no Retry-After; `x-ratelimit-reset` says when the window resets.
 * Likelihood (1–10) becomes confidence (10–100).
 */
export function pdlProvider(
  apiKey: string,
  baseUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): ContactProvider {
  const call = { ...upstream, provider: "pdl" };
  return {
    name: "pdl",
    async find({ person, fields }): Promise<FindResult> {
      const params = new URLSearchParams({ min_likelihood: "6" });
      if (person.linkedinSlug) params.set("profile", `linkedin.com/in/${person.linkedinSlug}`);
      if (person.email) params.set("email", person.email);
      const name = firstAndLast(person);
      const company = person.companyDomain ?? person.companyName;
      if (name && company) {
        params.set("first_name", name.first);
        params.set("last_name", name.last);
        params.set("company", company);
      }
      if (!params.has("profile") && !params.has("email") && !params.has("company")) return notFound();
      const request = new Request(`${baseUrl}/v5/person/enrich?${params}`, {
        headers: { "x-api-key": apiKey, accept: "application/json" },
      });
      const body = await fetchJson(call, request, enrichAnswer, {
        notFound: [404],
        retryAfterHeaders: ["retry-after", "x-ratelimit-reset"],
      });
      if (!body?.data) return notFound();
      const confidence = Math.max(10, Math.min(100, Math.round((body.likelihood ?? 5) * 10)));
      const data = body.data;
      const emails: Email[] = [];
      if (fields.includes("email")) {
        for (const address of strings(data.work_email))
          emails.push({
            address: address.toLowerCase(),
            type: "work",
            status: "unverified",
            confidence,
            source: "pdl",
          });
        for (const address of strings(data.personal_emails))
          emails.push({
            address: address.toLowerCase(),
            type: "personal",
            status: "unverified",
            confidence,
            source: "pdl",
          });
        if (Array.isArray(data.emails)) {
          for (const entry of data.emails as { address?: unknown; type?: unknown }[]) {
            if (typeof entry?.address !== "string") continue;
            const type = entry.type === "personal" ? "personal" : "work";
            emails.push({
              address: entry.address.toLowerCase(),
              type,
              status: "unverified",
              confidence,
              source: "pdl",
            });
          }
        }
      }
      const phones: Phone[] = [];
      if (fields.includes("phone")) {
        const mobile = strings(data.mobile_phone).map(toE164);
        for (const number of mobile) if (number) phones.push({ number, type: "mobile", confidence, source: "pdl" });
        for (const number of strings(data.phone_numbers).map(toE164))
          if (number) phones.push({ number, type: "unknown", confidence: confidence - 10, source: "pdl" });
      }
      return { emails, phones };
    },
  };
}

export const pdl: FinderVendor = {
  name: "pdl",
  kind: "finder",
  secret: "PDL_API_KEY",
  urlVariable: "PDL_API_URL",
  defaultUrl: "https://api.peopledatalabs.com",
  // Person Enrichment: 100/min on a paid plan (fixed minute windows, `x-ratelimit-*`; free plans less; 2026-11).
  limits: [{ limit: 100, seconds: 60 }],
  // What one call costs us, USD, at its list price (Pro plan, about $0.10 an enrichment, 2026-11); VENDOR_PRICES overrides.
  pricePerCall: 0.1,
  create: pdlProvider,
};
