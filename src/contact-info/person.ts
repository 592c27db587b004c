import * as z from "zod";

export const MAX_FIELD_LENGTH = 512;

export const PERSON_FIELDS = [
  "externalId",
  "firstName",
  "lastName",
  "fullName",
  "companyName",
  "companyDomain",
  "linkedinUrl",
  "email",
] as const;

type PersonField = (typeof PERSON_FIELDS)[number];

/** An item as submitted: every field optional, every value a string. */
export type PersonInput = Partial<Record<PersonField, string>>;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// C0 and C1 control characters, except tab, LF and CR: those are whitespace that normalization collapses.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const EMAIL = /^([^\s@"<>()[\]\\,;:\u0000-\u001f\u007f-\u009f]{1,64})@([^\s@]+)$/;
// Characters that would make a domain mean another URL part (or none) when parsed as a host.
const NOT_IN_HOST = /[\s/\\?#@:%[\]\u0000-\u001f\u007f-\u009f]/;
const NON_ASCII = /[^\u0000-\u007f]/;
const LINKEDIN_PROFILE = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([a-z0-9\-_.%]{2,100})\/?(?:[?#].*)?$/i;
const NOT_IN_SLUG = /[\s/\u0000-\u001f\u007f-\u009f]/;

/**
 * Text we can store and echo faithfully: well-formed UTF-16 (no unpaired
 * surrogate, which UTF-8 storage would silently turn into U+FFFD) and no control
 * characters other than tab, LF and CR.
 */
export const isCleanText = (value: string): boolean => value.isWellFormed() && !CONTROL.test(value);

/**
 * The ASCII (punycode) form of a domain name, lower-cased, or null when the
 * value is not one. Internationalized names (`bücher.example`) are converted
 * with the URL parser's IDNA processing (UTS #46), the same mapping browsers use.
 */
export function asciiDomain(value: string): string | null {
  if (DOMAIN.test(value)) return value.toLowerCase();
  if (!NON_ASCII.test(value) || !value.isWellFormed() || NOT_IN_HOST.test(value)) return null;
  const host = URL.parse(`http://${value}/`)?.hostname;
  return host !== undefined && DOMAIN.test(host) ? host : null;
}

const isDomain = (value: string): boolean => asciiDomain(value) !== null;

/** An email address with its local part lower-cased and its domain in ASCII form, or null when it is not one. */
export function asciiEmail(value: string): string | null {
  const match = EMAIL.exec(value);
  if (!match || !value.isWellFormed()) return null;
  const domain = asciiDomain(match[2]!);
  return domain === null ? null : `${match[1]!.toLowerCase()}@${domain}`;
}

const isEmail = (value: string): boolean => asciiEmail(value) !== null;

/** decodeURIComponent without the throw: null for a malformed escape (`%zz`, a lone `%`, bytes that are not UTF-8 such as `%ff`). */
function decodePercent(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** The profile slug of a LinkedIn profile URL, or null when the URL is not one (malformed escapes included). */
export function linkedinSlug(value: string): string | null {
  const slug = LINKEDIN_PROFILE.exec(value.trim())?.[1];
  const decoded = slug === undefined ? null : decodePercent(slug);
  return decoded !== null && !NOT_IN_SLUG.test(decoded) ? decoded.toLowerCase() : null;
}

// Blank strings are common in CSV exports; they count as "not given" rather than as errors.
const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

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
    if (given(person.linkedinUrl) || given(person.email)) return;
    const hasName = given(person.fullName) || (given(person.firstName) && given(person.lastName));
    const hasCompany = given(person.companyDomain) || given(person.companyName);
    if (hasName && hasCompany) return;
    ctx.addIssue({
      code: "custom",
      path: hasName ? ["companyDomain"] : [],
      message: hasName
        ? "a name needs a company: give companyDomain or companyName"
        : "item needs linkedinUrl, email, or a name (firstName + lastName, or fullName) with companyDomain or companyName",
    });
  });

/**
 * Trimmed, whitespace collapsed, lower-cased (case carries no meaning in any of
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
  const clean = (value: string | undefined) => (given(value) ? value.trim().replace(/\s+/g, " ").toLowerCase() : undefined);
  const set = <K extends keyof NormalizedPerson>(key: K, value: string | undefined) => {
    if (value !== undefined) person[key] = value;
  };
  set("firstName", clean(input.firstName));
  set("lastName", clean(input.lastName));
  set("fullName", clean(input.fullName));
  set("companyName", clean(input.companyName));
  const domain = clean(input.companyDomain);
  set("companyDomain", domain === undefined ? undefined : (asciiDomain(domain) ?? domain));
  set("linkedinSlug", given(input.linkedinUrl) ? (linkedinSlug(input.linkedinUrl) ?? undefined) : undefined);
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
  return JSON.stringify(SORTED_PERSON_KEYS.filter((key) => Object.hasOwn(person, key)).map((key) => [key, person[key]]));
}
