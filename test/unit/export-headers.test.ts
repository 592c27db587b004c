import { describe, expect, it } from "vitest";
import { DIRECTORY_COLUMNS } from "../../src/enrichment/directory-import";
import { decideMapping, PERSON_FIELDS, parseCsvText } from "../../src/file-core/index";
import apollo from "../../test/exports/apollo-people.csv?raw";
import hubspot from "../../test/exports/hubspot-contacts.csv?raw";
import linkedin from "../../test/exports/linkedin-connections.csv?raw";
import pipedrive from "../../test/exports/pipedrive-people.csv?raw";
import salesforceContacts from "../../test/exports/salesforce-contacts.csv?raw";
import salesforceLeads from "../../test/exports/salesforce-leads.csv?raw";
import zohoContacts from "../../test/exports/zoho-contacts.csv?raw";
import zohoLeads from "../../test/exports/zoho-leads.csv?raw";

const headerOf = (text: string) => (parseCsvText(text)[0] as { cells: string[] }).cells;
/** The mapping with column names in place of indexes, to read like the export. */
function mapped(text: string, fields: readonly string[]) {
  const header = headerOf(text);
  const mapping = decideMapping(header, fields) as Record<string, number[]>;
  return Object.fromEntries(Object.entries(mapping).map(([field, indexes]) => [field, indexes.map((i) => header[i])]));
}

describe("the standard exports' header lines map to the API's fields", () => {
  it.each([
    [
      "HubSpot contacts",
      hubspot,
      {
        externalId: ["Record ID"],
        firstName: ["First Name"],
        lastName: ["Last Name"],
        email: ["Email"],
        companyName: ["Company Name", "Associated Company"],
        companyDomain: ["Website URL"],
        linkedinUrl: ["LinkedIn URL"],
      },
    ],
    [
      "Salesforce leads",
      salesforceLeads,
      {
        firstName: ["First Name"],
        lastName: ["Last Name"],
        companyName: ["Company / Account"],
        email: ["Email"],
        companyDomain: ["Website"],
        externalId: ["Lead ID"],
      },
    ],
    [
      "Salesforce contacts",
      salesforceContacts,
      {
        firstName: ["First Name"],
        lastName: ["Last Name"],
        companyName: ["Account Name"],
        email: ["Email"],
        externalId: ["Contact ID"],
      },
    ],
    [
      "Pipedrive people",
      pipedrive,
      {
        externalId: ["Person - ID"],
        fullName: ["Person - Name"],
        firstName: ["Person - First name"],
        lastName: ["Person - Last name"],
        companyName: ["Person - Organization"],
        email: ["Person - Email - Work"],
      },
    ],
    [
      "Apollo people",
      apollo,
      {
        firstName: ["First Name"],
        lastName: ["Last Name"],
        companyName: ["Company"],
        email: ["Email"],
        linkedinUrl: ["Person Linkedin Url"],
        companyDomain: ["Website"],
        externalId: ["Apollo Contact Id"],
      },
    ],
    [
      "LinkedIn connections (Sales Navigator users' export)",
      linkedin,
      {
        firstName: ["First Name"],
        lastName: ["Last Name"],
        linkedinUrl: ["URL"],
        email: ["Email Address"],
        companyName: ["Company"],
      },
    ],
    [
      "Zoho leads",
      zohoLeads,
      {
        externalId: ["Record Id"],
        companyName: ["Company"],
        firstName: ["First Name"],
        lastName: ["Last Name"],
        email: ["Email"],
        companyDomain: ["Website"],
      },
    ],
    [
      "Zoho contacts",
      zohoContacts,
      {
        externalId: ["Record Id"],
        firstName: ["First Name"],
        lastName: ["Last Name"],
        companyName: ["Account Name"],
        email: ["Email"],
      },
    ],
  ])("%s", (_, text, expected) => {
    const mapping = mapped(text, PERSON_FIELDS);
    expect(Object.keys(mapping).sort()).toEqual(Object.keys(expected).sort());
    expect(mapping).toEqual(expected);
  });

  it("maps the phones and second emails the directory import keeps", () => {
    expect(mapped(hubspot, DIRECTORY_COLUMNS)).toMatchObject({
      workPhone: ["Phone Number"],
      mobilePhone: ["Mobile Phone Number"],
      workEmail: ["Email"],
    });
    expect(mapped(pipedrive, DIRECTORY_COLUMNS)).toMatchObject({
      personalEmail: ["Person - Email - Home"],
      workPhone: ["Person - Phone - Work"],
      mobilePhone: ["Person - Phone - Mobile"],
    });
    expect(mapped(apollo, DIRECTORY_COLUMNS)).toMatchObject({
      emailStatus: ["Email Status"],
      mobilePhone: ["Mobile Phone"],
      workPhone: ["Work Direct Phone", "Corporate Phone"],
    });
    expect(mapped(zohoLeads, DIRECTORY_COLUMNS)).toMatchObject({
      personalEmail: ["Secondary Email"],
      mobilePhone: ["Mobile"],
      workPhone: ["Phone"],
    });
  });
});
