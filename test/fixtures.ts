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
