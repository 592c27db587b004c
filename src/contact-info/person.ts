import * as z from "zod";
import {
  asciiDomain,
  asciiEmail,
  given,
  identificationProblem,
  isCleanText,
  isDomain,
  isEmail,
  linkedinSlug,
  type PersonInput,
} from "./identifiers";

export { asciiDomain, asciiEmail, isCleanText, linkedinSlug, PERSON_FIELDS, type PersonInput } from "./identifiers";

export const MAX_FIELD_LENGTH = 512;

const text = z
  .string({ error: "must be a string" })
  .max(MAX_FIELD_LENGTH, { error: `must be at most ${MAX_FIELD_LENGTH} characters` })
  .refine(isCleanText, { error: "must not contain control characters or unpaired surrogates", abort: true });

const formatted = (check: (value: string) => boolean, expectation: string) =>
  text.refine((value) => !given(value) || check(value.trim()), { error: expectation });

export const personInputSchema = z
  .strictObject(
    {
      externalId: text.optional(),
      firstName: text.optional(),
      lastName: text.optional(),
      fullName: text.optional(),
      companyName: text.optional(),
      companyDomain: formatted(isDomain, "must be a domain name such as example.com").optional(),
      linkedinUrl: formatted(
        (value) => linkedinSlug(value) !== null,
        "must be a LinkedIn profile URL such as https://www.linkedin.com/in/jane-doe",
      ).optional(),
      email: formatted(isEmail, "must be an email address such as jane@example.com").optional(),
    },
    { error: (issue) => (issue.code === "invalid_type" ? "item must be a JSON object" : undefined) },
  )
  .superRefine((person, ctx) => {
    const problem = identificationProblem(person);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });

/**
 * Unicode-normalized (NFC), trimmed, whitespace collapsed, lower-cased (case carries no meaning in any of
 * these), blanks dropped; domains (also of emails) in their ASCII (punycode) form.
 * A schema, because a normalized person also travels in queue messages.
 */
export const normalizedPersonSchema = z.object({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  fullName: z.string().optional(),
  companyName: z.string().optional(),
  companyDomain: z.string().optional(),
  linkedinSlug: z.string().optional(),
  email: z.string().optional(),
});
export type NormalizedPerson = z.infer<typeof normalizedPersonSchema>;

export function normalizePerson(input: PersonInput): NormalizedPerson {
  const person: NormalizedPerson = {};
  // NFC first: the same text composed two ways (an "ë" as one code point, or "e" and its accent) is one value.
  const clean = (value: string | undefined) =>
    given(value) ? value.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase() : undefined;
  const set = <K extends keyof NormalizedPerson>(key: K, value: string | undefined) => {
    if (value !== undefined) person[key] = value;
  };
  set("firstName", clean(input.firstName));
  set("lastName", clean(input.lastName));
  set("fullName", clean(input.fullName));
  set("companyName", clean(input.companyName));
  const domain = clean(input.companyDomain);
  set("companyDomain", domain === undefined ? undefined : (asciiDomain(domain) ?? domain));
  // NFC after the slug's percent-escapes are decoded: they may spell either composition.
  set("linkedinSlug", given(input.linkedinUrl) ? linkedinSlug(input.linkedinUrl)?.normalize("NFC") : undefined);
  const email = clean(input.email);
  set("email", email === undefined ? undefined : (asciiEmail(email) ?? email));
  return person;
}

// A normalized person's keys in sorted order, so its key needs no sort per item.
const SORTED_PERSON_KEYS = Object.keys(normalizedPersonSchema.shape).sort() as (keyof NormalizedPerson)[];

/**
 * The normalized person as one canonical string: equal people, equal keys. Its
 * entries in key order, as JSON (stored, and hashed into cache keys: never change its form).
 */
export function personKey(person: NormalizedPerson): string {
  return JSON.stringify(
    SORTED_PERSON_KEYS.filter((key) => Object.hasOwn(person, key)).map((key) => [key, person[key]]),
  );
}
