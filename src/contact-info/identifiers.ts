// The checks that tell an identifier is well formed, and whether a person is
// identified at all. Plain functions without zod, so the file core can run them in
// a browser page without the schema library.

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

export const isDomain = (value: string): boolean => asciiDomain(value) !== null;

/** An email address with its local part lower-cased and its domain in ASCII form, or null when it is not one. */
export function asciiEmail(value: string): string | null {
  const match = EMAIL.exec(value);
  if (!match || !value.isWellFormed()) return null;
  const domain = asciiDomain(match[2]!);
  return domain === null ? null : `${match[1]!.toLowerCase()}@${domain}`;
}

export const isEmail = (value: string): boolean => asciiEmail(value) !== null;

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
export const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** Why a person cannot be looked up, or undefined when it can: a LinkedIn URL, an email, or a name with a company. */
export function identificationProblem(person: PersonInput): { path: string[]; message: string } | undefined {
  if (given(person.linkedinUrl) || given(person.email)) return undefined;
  const hasName = given(person.fullName) || (given(person.firstName) && given(person.lastName));
  const hasCompany = given(person.companyDomain) || given(person.companyName);
  if (hasName && hasCompany) return undefined;
  return hasName
    ? { path: ["companyDomain"], message: "a name needs a company: give companyDomain or companyName" }
    : {
        path: [],
        message:
          "item needs linkedinUrl, email, or a name (firstName + lastName, or fullName) with companyDomain or companyName",
      };
}
