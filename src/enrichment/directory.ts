import type { EmailType, PhoneType } from "../contact-info/contact";
import { firstAndLast } from "../contact-info/names";
import type { NormalizedPerson } from "../contact-info/person";
import type { EmailPattern } from "./email-patterns";
import { type ContactProvider, type FindResult, notFound, TransientProviderError } from "./provider";

/**
 * What the operator's file says of an address (its emailStatus column): their
 * word, kept as imported. Lookups return `unverified` (the verifiers judge it)
 * and never an address the operator marked invalid.
 */
export const DIRECTORY_EMAIL_STATUSES = ["valid", "probable", "catch_all", "invalid", "unknown"] as const;
export type DirectoryEmailStatus = (typeof DIRECTORY_EMAIL_STATUSES)[number];

/** One person in the operator's directory, as stored in the DIRECTORY namespace. */
export interface DirectoryEntry {
  firstName?: string;
  lastName?: string;
  companyName?: string;
  companyDomain?: string;
  linkedinSlug?: string;
  emails: { address: string; type: EmailType; status: DirectoryEmailStatus }[];
  phones: { number: string; type: PhoneType }[];
}

export interface LearnedPattern {
  pattern: EmailPattern;
  samples: number;
}

// KV keys are at most 512 bytes. Name words are ASCII letters and digits of any
// length (a field holds 512 characters, more after NFKD), so each is cut to this
// many characters; import and lookup build keys here, so both cut alike.
// With a domain of at most 253 bytes a name key stays under 470 bytes.
const MAX_NAME_KEY_WORD = 100;

/** KV key schema of the DIRECTORY namespace; docs/storage.md describes it. */
export const directoryKey = {
  linkedin: (slug: string) => `li:${slug}`,
  email: (address: string) => `email:${address}`,
  name: (domain: string, first: string, last: string) =>
    `name:${domain}:${first.slice(0, MAX_NAME_KEY_WORD)}.${last.slice(0, MAX_NAME_KEY_WORD)}`,
  pattern: (domain: string) => `pattern:${domain}`,
};

/** Every key an entry is stored under: each is a way a caller may identify the person. */
export function entryKeys(entry: DirectoryEntry): string[] {
  const keys: string[] = [];
  if (entry.linkedinSlug) keys.push(directoryKey.linkedin(entry.linkedinSlug));
  for (const { address } of entry.emails) keys.push(directoryKey.email(address));
  const name = firstAndLast(entry);
  if (name && entry.companyDomain) keys.push(directoryKey.name(entry.companyDomain, name.first, name.last));
  return keys;
}

/** The keys to try for a person, most specific first. */
export function lookupKeys(person: NormalizedPerson): string[] {
  const keys: string[] = [];
  if (person.linkedinSlug) keys.push(directoryKey.linkedin(person.linkedinSlug));
  if (person.email) keys.push(directoryKey.email(person.email));
  const name = firstAndLast(person);
  if (name && person.companyDomain) keys.push(directoryKey.name(person.companyDomain, name.first, name.last));
  return keys;
}

/** One directory read. KV failing is the directory being unavailable (a source outage), not a fault of ours. */
export async function readDirectory<T>(kv: KVNamespace, key: string): Promise<T | null> {
  try {
    return await kv.get<T>(key, { type: "json", cacheTtl: 300 });
  } catch {
    throw new TransientProviderError("directory: KV read failed");
  }
}

// The operator's own records: trusted, but not verified by us at lookup time.
const DIRECTORY_CONFIDENCE = 90;

export function directoryProvider(kv: KVNamespace): ContactProvider {
  return {
    name: "directory",
    async find({ person }): Promise<FindResult> {
      const keys = lookupKeys(person);
      const hits = await Promise.all(keys.map((key) => readDirectory<DirectoryEntry>(kv, key)));
      const entry = hits.find((hit) => hit !== null);
      if (!entry) return notFound();
      return {
        emails: entry.emails
          .filter((email) => email.status !== "invalid")
          .map(({ address, type }) => ({
            address,
            type,
            status: "unverified",
            confidence: DIRECTORY_CONFIDENCE,
            source: "directory",
          })),
        phones: entry.phones.map((phone) => ({ ...phone, confidence: DIRECTORY_CONFIDENCE, source: "directory" })),
      };
    },
  };
}
