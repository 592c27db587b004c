import { DeliberateFault } from "../base/log";
import type { Email, Phone, PhoneType } from "../contact-info/contact";
import { asciiWord, splitName } from "../contact-info/names";
import type { NormalizedPerson } from "../contact-info/person";
import { type ContactProvider, type FindRequest, type FindResult, TransientProviderError } from "./provider";

/** Company domains that make the sandbox act out an outcome; see README. */
const SANDBOX_DOMAINS = {
  notFound: "notfound.test",
  fail: "fail.test",
  flaky: "flaky.test",
  unavailable: "unavailable.test",
} as const;

// North American numbers 555-0100 to 555-0199 are reserved for fiction.
const AREA_CODES = [201, 206, 212, 303, 312, 415, 512, 617, 646, 702] as const;
// Lowest confidence, by the seed; the status is the sandbox verifier's (sandbox-verifier.ts).
const CONFIDENCE_FLOORS = [90, 90, 70, 50, 30] as const;
const PHONE_TYPES: readonly PhoneType[] = ["mobile", "mobile", "landline", "voip"];

/**
 * The `test` environment's source: synthetic data derived from the input (same
 * input, same output), on reserved `.example` domains and fictional numbers, so
 * it can never describe a real person. It calls nothing outside the Worker.
 */
export const sandboxProvider: ContactProvider = {
  name: "sandbox",
  async find({ person, personKey, fields, attempt }: FindRequest): Promise<FindResult> {
    const domain = person.companyDomain;
    // fail.test acts out a fault in our own processing (not a source outage): the attempt fails, the queue retries it.
    if (domain === SANDBOX_DOMAINS.fail) throw new DeliberateFault("sandbox: fail.test always fails");
    if (domain === SANDBOX_DOMAINS.unavailable)
      throw new TransientProviderError("sandbox: unavailable.test is never available");
    if (domain === SANDBOX_DOMAINS.flaky && attempt === 1) {
      throw new TransientProviderError("sandbox: flaky.test fails on its first attempt");
    }
    if (domain === SANDBOX_DOMAINS.notFound) return { emails: [], phones: [] };

    const seed = await digest(personKey);
    const { first, last } = nameParts(person);
    const company = companySlug(person);
    const emails: Email[] = [];
    const phones: Phone[] = [];
    if (fields.includes("email")) {
      const min = CONFIDENCE_FLOORS[seed[0]! % CONFIDENCE_FLOORS.length]!;
      const local = [first, last].filter(Boolean).join(".") || "contact";
      emails.push({
        address: `${local}@${company}.example`,
        type: "work",
        status: "unverified",
        confidence: min + (seed[1]! % 10),
        source: "sandbox",
      });
      if (seed[2]! % 4 === 0) {
        emails.push({
          address: `${first || "contact"}${seed[3]! % 100}@personal.example`,
          type: "personal",
          status: "unverified",
          confidence: 40 + (seed[4]! % 20),
          source: "sandbox",
        });
      }
    }
    if (fields.includes("phone") && seed[5]! % 3 !== 0) {
      const area = AREA_CODES[seed[6]! % AREA_CODES.length]!;
      const line = String(seed[7]! % 100).padStart(2, "0");
      phones.push({
        number: `+1${area}55501${line}`,
        type: PHONE_TYPES[seed[8]! % PHONE_TYPES.length]!,
        confidence: 60 + (seed[9]! % 36),
        source: "sandbox",
      });
    }
    return { emails, phones };
  },
};

const encoder = new TextEncoder();

async function digest(personKey: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(personKey)));
}

function nameParts(person: NormalizedPerson): { first: string; last: string } {
  // Without a name, the sandbox makes one up from the LinkedIn slug or the address.
  // First + last when both are given, else the full name, as every finder (contact-info/names.ts).
  const name = splitName(
    person.firstName && person.lastName
      ? [person.firstName, person.lastName]
      : person.fullName
        ? person.fullName
        : person.firstName || person.lastName
          ? [person.firstName ?? "", person.lastName ?? ""]
          : person.linkedinSlug
            ? person.linkedinSlug.split(/[-_.]/).filter((word) => !/\d/.test(word))
            : (person.email?.split("@")[0]?.split(/[._-]/) ?? []),
  );
  return { first: asciiWord(name.first), last: asciiWord(name.last) };
}

function companySlug(person: NormalizedPerson): string {
  const label = person.companyDomain?.split(".")[0] ?? person.companyName ?? person.email?.split("@")[1]?.split(".")[0];
  return asciiWord(label ?? "") || "company";
}
