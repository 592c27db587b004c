// Numbers and counts as a person reads them: "5,000 rows", "1 duplicate", "2 min".
const NUMBER = new Intl.NumberFormat("en");

export const num = (n: number): string => NUMBER.format(n);

/** "1 row", "5,000 rows"; `many` for irregular plurals. */
export const count = (n: number, one: string, many = `${one}s`): string => `${num(n)} ${n === 1 ? one : many}`;

export const duration = (seconds: number): string =>
  seconds < 60
    ? `${seconds} s`
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${(seconds / 3600).toFixed(1)} h`;

/** The API's fields as a sales-ops person names them. */
export const FIELD_LABELS = {
  email: "Email",
  linkedinUrl: "LinkedIn URL",
  firstName: "First name",
  lastName: "Last name",
  fullName: "Full name",
  companyName: "Company name",
  companyDomain: "Company website",
  externalId: "Your record ID",
} as const;

const WHY: Record<string, string> = {
  "a name needs a company: give companyDomain or companyName":
    "It has a name but no company: add the company name or website.",
  "item needs linkedinUrl, email, or a name (firstName + lastName, or fullName) with companyDomain or companyName":
    "Nothing in it identifies a person: it needs an email, a LinkedIn URL, or a name with a company.",
};

/** Why a row is not sent, as sentences: the file core's reason ("…; email is not an email address") in words. */
export function plainReason(problem: string): string {
  return problem
    .split("; ")
    .map((part) => {
      if (WHY[part]) return WHY[part];
      const field = Object.keys(FIELD_LABELS).find((name) => part.startsWith(`${name} is not `));
      if (field)
        return `The ${FIELD_LABELS[field as keyof typeof FIELD_LABELS]} cell is not ${part.slice(field.length + 8)}.`;
      return `${part.charAt(0).toUpperCase()}${part.slice(1)}.`;
    })
    .join(" ");
}
