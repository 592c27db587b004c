import type { PersonInput } from "../src/contact-info/person";

/** A person with every field given and valid: fuzz cases poison one field at a time. */
export const COMPLETE_PERSON = {
  externalId: "crm-1",
  firstName: "Jane",
  lastName: "Doe",
  fullName: "Jane Doe",
  companyName: "Example",
  companyDomain: "example.com",
  linkedinUrl: "https://www.linkedin.com/in/jane-doe",
  email: "jane@example.com",
} satisfies Required<PersonInput>;

/** A valid person the fake finders find (test/fakes/finders.ts); `overrides` change or add fields. */
export const person = (overrides: Record<string, unknown> = {}) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  companyDomain: "analytical.example",
  ...overrides,
});
