// Column names as people's tools write them: a CRM export says "First Name",
// "Email", "LinkedIn URL" where we say firstName, workEmail, linkedinUrl. One
// matcher for every file the tools read (directory import, the enrich command's
// input); each caller passes the columns it knows.

/** Only letters and digits, lower-cased: "First Name", "first_name" and "firstName" all read "firstname". */
const columnKey = (name: string): string =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** Other names for each column, as column keys. A name may serve several columns; the caller's list decides. */
const COLUMN_ALIASES: Readonly<Record<string, readonly string[]>> = {
  externalId: ["id", "externalid", "recordid", "contactid", "crmid"],
  firstName: ["first", "firstname", "givenname", "forename"],
  lastName: ["last", "lastname", "surname", "familyname"],
  fullName: ["name", "fullname", "contactname", "personname"],
  companyName: ["company", "companyname", "organization", "organisation", "account", "accountname", "employer"],
  companyDomain: ["domain", "companydomain", "emaildomain", "websitedomain", "website", "websiteurl", "companywebsite"],
  linkedinUrl: ["linkedin", "linkedinurl", "linkedinprofile", "linkedinprofileurl", "personlinkedinurl"],
  email: ["email", "emailaddress", "workemail", "businessemail"],
  workEmail: ["email", "emailaddress", "workemail", "businessemail"],
  personalEmail: ["personalemail", "privateemail", "homeemail"],
  emailStatus: ["emailstatus", "emailverification", "emailverificationstatus"],
  mobilePhone: ["mobile", "mobilephone", "mobilenumber", "cell", "cellphone"],
  workPhone: ["phone", "phonenumber", "workphone", "businessphone", "officephone", "directphone", "telephone"],
};

/** The known column a header names, by its own name first, then by an alias; undefined if none. */
export function matchColumn<Column extends string>(header: string, known: readonly Column[]): Column | undefined {
  const key = columnKey(header);
  if (key === "") return undefined;
  return known.find((column) => columnKey(column) === key) ?? known.find((column) => COLUMN_ALIASES[column]?.includes(key));
}

export type ColumnMatch<Column extends string> = { columns: Column[] } | { problem: string };

/** Maps a header row to known columns, or says which headers are unknown or mean the same column. */
export function matchColumns<Column extends string>(headers: readonly string[], known: readonly Column[]): ColumnMatch<Column> {
  const columns: Column[] = [];
  const unknown: string[] = [];
  const seen = new Map<Column, string>();
  for (const header of headers) {
    const column = matchColumn(header, known);
    if (column === undefined) {
      unknown.push(header.trim() || "(blank)");
      continue;
    }
    const earlier = seen.get(column);
    if (earlier !== undefined) return { problem: `columns "${earlier}" and "${header.trim()}" both mean ${column}; keep one` };
    seen.set(column, header.trim());
    columns.push(column);
  }
  if (unknown.length > 0)
    return {
      problem: `unknown column(s) ${unknown.join(", ")}; known: ${known.join(", ")} (or common CRM names such as "First Name", "Email", "LinkedIn URL")`,
    };
  return { columns };
}
