// The contact data a batch finds, as zod schemas: the one source of the
// TypeScript types, of the values the providers may give, and of the OpenAPI document.
import * as z from "zod";

export const CONTACT_FIELDS = ["email", "phone"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

const EMAIL_TYPES = ["work", "personal"] as const;
export const EMAIL_STATUSES = ["valid", "probable", "catch_all", "invalid", "unknown"] as const;
const PHONE_TYPES = ["mobile", "landline", "voip", "unknown"] as const;

export type EmailType = (typeof EMAIL_TYPES)[number];
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type PhoneType = (typeof PHONE_TYPES)[number];

const confidence = z.number().int().min(0).max(100);

export const emailSchema = z
  .object({
    address: z.string().meta({ example: "ada.lovelace@analytical.example" }),
    type: z.enum(EMAIL_TYPES),
    status: z.enum(EMAIL_STATUSES).meta({
      description:
        "valid: verified deliverable; probable: from the company's known pattern; catch_all: the domain accepts everything; invalid; unknown.",
    }),
    confidence,
    source: z
      .string()
      .meta({ description: "The provider that gave this value: sandbox, directory, pattern, hunter, pdl.", example: "directory" }),
  })
  .meta({ id: "Email" });

export const phoneSchema = z
  .object({
    number: z.string().meta({ description: "E.164", example: "+14155550132" }),
    type: z.enum(PHONE_TYPES),
    confidence,
    source: z.string().meta({ example: "directory" }),
  })
  .meta({ id: "Phone" });

export type Email = z.infer<typeof emailSchema>;
export type Phone = z.infer<typeof phoneSchema>;

export type Outcome = "found" | "not_found";

export interface ItemError {
  code: string;
  message: string;
}
