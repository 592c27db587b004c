import { z } from "zod";

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

export type PersonField = (typeof PERSON_FIELDS)[number];

/** An item as submitted: every field optional, every value a string. */
export type PersonInput = Partial<Record<PersonField, string>>;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const EMAIL = /^([^\s@"<>()[\]\\,;:]{1,64})@([^\s@]+)$/;
const LINKEDIN_PROFILE =
  /^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([a-z0-9\-_.%]{2,100})\/?(?:[?#].*)?$/i;

export const isDomain = (value: string): boolean => DOMAIN.test(value);

export function isEmail(value: string): boolean {
  const match = EMAIL.exec(value);
  return match !== null && isDomain(match[2]!);
}

/** The profile slug of a LinkedIn profile URL, or null when the URL is not one. */
export function linkedinSlug(value: string): string | null {
  const slug = LINKEDIN_PROFILE.exec(value.trim())?.[1];
  return slug ? decodeURIComponent(slug).toLowerCase() : null;
}

// Blank strings are common in CSV exports; they count as "not given" rather than as errors.
const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

const text = z
  .string({ error: "must be a string" })
  .max(MAX_FIELD_LENGTH, { error: `must be at most ${MAX_FIELD_LENGTH} characters` });

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

/** Trimmed, whitespace collapsed, lower-cased (case carries no meaning in any of these), blanks dropped. */
export interface NormalizedPerson {
  firstName?: string;
  lastName?: string;
  fullName?: string;
  companyName?: string;
  companyDomain?: string;
  linkedinSlug?: string;
  email?: string;
}

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
  set("companyDomain", clean(input.companyDomain));
  set("linkedinSlug", given(input.linkedinUrl) ? (linkedinSlug(input.linkedinUrl) ?? undefined) : undefined);
  set("email", clean(input.email));
  return person;
}

/** The normalized person as one canonical string: equal people, equal keys. */
export function personKey(person: NormalizedPerson): string {
  return JSON.stringify(Object.entries(person).sort(([a], [b]) => a.localeCompare(b)));
}
