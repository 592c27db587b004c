// The contact data a batch finds, as zod schemas: the one source of the
// TypeScript types, of the values the providers may give, and of the OpenAPI document.
import * as z from "zod";
import { ITEM_ERROR_CODES, ITEM_ERRORS } from "./item-errors";

export const CONTACT_FIELDS = ["email", "phone"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

const EMAIL_TYPES = ["work", "personal"] as const;
/** A returned email's deliverability, as the verifiers (ENRICHMENT_VERIFIERS) judged it; never a finder's word. */
const EMAIL_STATUSES = ["valid", "catch_all", "unknown", "unverified"] as const;
const PHONE_TYPES = ["mobile", "landline", "voip", "unknown"] as const;

export type EmailType = (typeof EMAIL_TYPES)[number];
export type PhoneType = (typeof PHONE_TYPES)[number];

const confidence = z
  .number()
  .int()
  .min(0)
  .max(100)
  .meta(
    OPENAPI_METADATA
      ? {
          description: "How sure the source is that the value belongs to this person, 0–100.",
          example: 80,
        }
      : {},
  );

const verifiedAt = z.iso.datetime().optional();

export const emailSchema = z
  .object({
    address: z.string().meta(OPENAPI_METADATA ? { example: "ada.lovelace@analytical.example" } : {}),
    type: z
      .enum(EMAIL_TYPES)
      .meta(
        OPENAPI_METADATA ? { description: "work: at the person's company domain; personal: a private mailbox." } : {},
      ),
    status: z.enum(EMAIL_STATUSES).meta(
      OPENAPI_METADATA
        ? {
            description:
              "valid: a verifier said the mailbox is deliverable; catch_all: the domain accepts every address, so delivery proves nothing; unknown: the verifiers could not tell, or were unavailable; unverified: no verifier is configured. Addresses a verifier calls invalid, disposable or a spam trap are never returned.",
          }
        : {},
    ),
    role: z
      .literal(true)
      .optional()
      .meta(
        OPENAPI_METADATA
          ? {
              description:
                "Present (true) when a verifier says the address is a role or team mailbox (info@, sales@), not a person's.",
            }
          : {},
      ),
    confidence,
    source: z.string().meta(
      OPENAPI_METADATA
        ? {
            description:
              "The provider that gave this value: sandbox, directory, pattern, hunter, pdl, apollo, prospeo.",
            example: "directory",
          }
        : {},
    ),
    verifiedAt: verifiedAt.meta(
      OPENAPI_METADATA
        ? {
            description:
              "When a verifier last judged the address (valid, catch_all), or, where none did (unknown, unverified), when it was found. A cached result is served only while every contact is younger than the submit's maxAgeDays.",
            example: "2026-11-20T09:30:00.000Z",
          }
        : {},
    ),
  })
  .meta({ id: "Email" });

export const phoneSchema = z
  .object({
    number: z.string().meta(OPENAPI_METADATA ? { description: "E.164", example: "+14155550132" } : {}),
    type: z
      .enum(PHONE_TYPES)
      .meta(OPENAPI_METADATA ? { description: "The line type, where the source knows it." } : {}),
    confidence,
    source: z
      .string()
      .meta(OPENAPI_METADATA ? { description: "The provider that gave this value.", example: "directory" } : {}),
    verifiedAt: verifiedAt.meta(
      OPENAPI_METADATA
        ? {
            description: "When the number was found (nothing verifies phones).",
            example: "2026-11-20T09:30:00.000Z",
          }
        : {},
    ),
  })
  .meta({ id: "Phone" });

export type Email = z.infer<typeof emailSchema>;
export type Phone = z.infer<typeof phoneSchema>;

/** What was found for one person. */
export interface Contacts {
  emails: Email[];
  phones: Phone[];
}

/** One entry per address (case-insensitive) or number, keeping the most confident; best first. */
export function mergeContacts(a: Contacts, b: Contacts): Contacts {
  return {
    emails: keepBest<Email>([...a.emails, ...b.emails], (email) => email.address.toLowerCase()),
    phones: keepBest<Phone>([...a.phones, ...b.phones], (phone) => phone.number),
  };
}

function keepBest<T extends { confidence: number }>(values: T[], key: (value: T) => string): T[] {
  const best = new Map<string, T>();
  for (const value of values) {
    const current = best.get(key(value));
    if (!current || value.confidence > current.confidence) best.set(key(value), value);
  }
  return [...best.values()].sort((x, y) => y.confidence - x.confidence);
}

export type Outcome = "found" | "not_found";

export const itemErrorSchema = z
  .object({
    code: z.enum(ITEM_ERROR_CODES).meta(
      OPENAPI_METADATA
        ? {
            description: `${Object.entries(ITEM_ERRORS)
              .map(([code, meaning]) => `${code}: ${meaning}`)
              .join("; ")}.`,
            example: "invalid_input",
          }
        : {},
    ),
    message: z
      .string()
      .meta(OPENAPI_METADATA ? { example: "email must be an email address such as jane@example.com" } : {}),
  })
  .meta({ id: "ItemError" });

export type { ItemError } from "./item-errors";
