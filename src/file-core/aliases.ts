// The column names of the exports people bring, per field. Data, not code: add a
// name here and every tool (enrich, the console, the directory import) knows it.
// Matching ignores case, spacing and punctuation ("First Name" = "first_name").
// Sources: the standard exports of HubSpot (contacts), Salesforce (leads and
// contacts reports and Data Loader), Pipedrive (people), Apollo (people), LinkedIn
// (Connections.csv, the file Sales Navigator users get; Sales Navigator has no
// export of its own) and Zoho CRM (leads and contacts); test/fixtures/exports has
// one header line of each.

export const FIELD_ALIASES = {
  externalId: ["ID", "Record ID", "Contact ID", "Lead ID", "CRM ID", "Person - ID", "Apollo Contact Id", "Record Id"],
  firstName: ["First", "First Name", "Given Name", "Forename", "Person - First name", "FirstName"],
  lastName: ["Last", "Last Name", "Surname", "Family Name", "Person - Last name", "LastName"],
  fullName: ["Name", "Full Name", "Contact Name", "Person Name", "Person - Name", "Lead Name"],
  companyName: [
    "Company",
    "Company Name",
    "Company / Account",
    "Account",
    "Account Name",
    "Organization",
    "Organisation",
    "Employer",
    "Person - Organization",
    "Organization - Name",
    "Associated Company",
  ],
  companyDomain: [
    "Domain",
    "Company Domain",
    "Company Domain Name",
    "Email Domain",
    "Website Domain",
    "Website",
    "Website URL",
    "Company Website",
    "Organization - Website",
  ],
  linkedinUrl: [
    "LinkedIn",
    "LinkedIn URL",
    "LinkedIn Profile",
    "LinkedIn Profile URL",
    "Person Linkedin Url",
    "LinkedIn Bio",
    "Profile URL",
    "URL",
    "Person - LinkedIn",
  ],
  email: [
    "Email",
    "E-mail",
    "Email Address",
    "Work Email",
    "Business Email",
    "Person - Email - Work",
    "Person - Email",
  ],
  workEmail: [
    "Email",
    "E-mail",
    "Email Address",
    "Work Email",
    "Business Email",
    "Person - Email - Work",
    "Person - Email",
  ],
  personalEmail: ["Personal Email", "Private Email", "Home Email", "Person - Email - Home", "Secondary Email"],
  emailStatus: ["Email Status", "Email Verification", "Email Verification Status"],
  mobilePhone: [
    "Mobile",
    "Mobile Phone",
    "Mobile Phone Number",
    "Mobile Number",
    "Cell",
    "Cell Phone",
    "Person - Phone - Mobile",
  ],
  workPhone: [
    "Phone",
    "Phone Number",
    "Work Phone",
    "Business Phone",
    "Office Phone",
    "Direct Phone",
    "Work Direct Phone",
    "Corporate Phone",
    "Telephone",
    "Person - Phone - Work",
    "Person - Phone",
  ],
} as const satisfies Record<string, readonly string[]>;

export type AliasedField = keyof typeof FIELD_ALIASES;

/** Only letters and digits, lower-cased: "First Name", "first_name" and "firstName" all read "firstname". */
export const columnKey = (name: string): string =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
