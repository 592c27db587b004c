import * as z from "zod";
import type { Phone } from "../contact-info/contact";
import { firstAndLast } from "../contact-info/names";
import { toE164 } from "../contact-info/phone";
import { type ContactProvider, type FindResult, notFound } from "./provider";
import { fetchJson, type UpstreamCall } from "./upstream";
import type { FinderVendor } from "./vendor";

// What Apollo documents of its answer, as much as we read (other fields pass).
const peopleMatchAnswer = z.object({
  person: z
    .object({
      email: z.string().nullish(),
      /** verified, guessed, unavailable, …: Apollo's word, replaced by our verifiers'. */
      email_status: z.string().nullish(),
      phone_numbers: z.array(z.object({ sanitized_number: z.string().nullish() })).nullish(),
    })
    .nullish(),
});

// Apollo's confidence in an address it says it verified, or only guessed.
const VERIFIED_CONFIDENCE = 85;
const GUESSED_CONFIDENCE = 60;
// An address Apollo has but the plan does not reveal: a placeholder, not an address.
const LOCKED = /^email_not_unlocked@/;

/**
 * Apollo People Enrichment (POST /api/v1/people/match): a name with a domain or
 * company name, a LinkedIn URL or an email. No match is a 200 with `person: null`;
 * its rate limit is a 429. Mobile numbers need a webhook, so only the phones the
 * match carries are used.
 */
export function apolloProvider(
  apiKey: string,
  baseUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): ContactProvider {
  const call = { ...upstream, provider: "apollo" };
  return {
    name: "apollo",
    async find({ person, fields }): Promise<FindResult> {
      const params = new URLSearchParams({ reveal_personal_emails: "false" });
      const name = firstAndLast(person);
      if (name && (person.companyDomain || person.companyName)) {
        params.set("first_name", name.first);
        params.set("last_name", name.last);
        if (person.companyDomain) params.set("domain", person.companyDomain);
        else if (person.companyName) params.set("organization_name", person.companyName);
      }
      if (person.linkedinSlug) params.set("linkedin_url", `https://www.linkedin.com/in/${person.linkedinSlug}`);
      if (person.email) params.set("email", person.email);
      if (!params.has("first_name") && !params.has("linkedin_url") && !params.has("email")) return notFound();
      const request = new Request(`${baseUrl}/api/v1/people/match?${params}`, {
        method: "POST",
        headers: { "x-api-key": apiKey, accept: "application/json", "content-type": "application/json" },
      });
      const body = await fetchJson(call, request, peopleMatchAnswer, { notFound: [404] });
      const match = body?.person;
      if (!match) return notFound();
      const confidence = match.email_status === "verified" ? VERIFIED_CONFIDENCE : GUESSED_CONFIDENCE;
      const address = match.email?.toLowerCase();
      const phones: Phone[] = [];
      if (fields.includes("phone")) {
        for (const entry of match.phone_numbers ?? []) {
          const number = entry.sanitized_number ? toE164(entry.sanitized_number) : null;
          if (number) phones.push({ number, type: "unknown", confidence: GUESSED_CONFIDENCE, source: "apollo" });
        }
      }
      return {
        emails:
          address && !LOCKED.test(address) && fields.includes("email")
            ? [{ address, type: "work", status: "unverified", confidence, source: "apollo" }]
            : [],
        phones,
      };
    },
  };
}

export const apollo: FinderVendor = {
  name: "apollo",
  kind: "finder",
  secret: "APOLLO_API_KEY",
  urlVariable: "APOLLO_API_URL",
  defaultUrl: "https://api.apollo.io",
  // People Match: 1,000/min on paid plans (2026-11).
  limits: [{ limit: 1_000, seconds: 60 }],
  // What one call costs us, USD, at its list price (Basic plan, about $0.04 an export credit, 2026-11); VENDOR_PRICES overrides.
  pricePerCall: 0.04,
  create: apolloProvider,
};
