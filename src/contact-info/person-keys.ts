import * as z from "zod";
import { sha256Hex } from "../sha256";
import { type NormalizedPerson, normalizePerson, PERSON_FIELDS, personKey } from "./person";

// The keys a person is found by, for erasure and the suppression list: one per
// identifier the person carries (an email, a LinkedIn profile, a name with a
// company domain, a name with a company name), each the `personKey` of a person
// holding only that identifier, so an item submitted with more fields is still
// found by any one of them. Stored only hashed (SHA-256, as the result cache
// hashes a person key): the account's index and suppression list hold the hashes;
// batch objects match their items against the keys themselves. An item's hashes are
// made once, at submission (`personHashes`), and travel with it: the do-not-enrich
// check, the person index and the result cache all read them, none hashes again.

/** The person's name as one text: fullName, else "first last"; undefined without one. */
function nameOf(person: NormalizedPerson): string | undefined {
  if (person.fullName !== undefined) return person.fullName;
  return person.firstName !== undefined && person.lastName !== undefined ? `${person.firstName} ${person.lastName}` : undefined;
}

/** The person's identifier keys (unhashed): what an erasure matches items by, inside the batch object. */
export function identifierKeys(person: NormalizedPerson): string[] {
  const keys: string[] = [];
  if (person.email !== undefined) keys.push(personKey({ email: person.email }));
  if (person.linkedinSlug !== undefined) keys.push(personKey({ linkedinSlug: person.linkedinSlug }));
  const name = nameOf(person);
  if (name !== undefined) {
    if (person.companyDomain !== undefined) keys.push(personKey({ fullName: name, companyDomain: person.companyDomain }));
    if (person.companyName !== undefined) keys.push(personKey({ fullName: name, companyName: person.companyName }));
  }
  return keys;
}

/** The hashed keys: what the account's index and suppression list hold. */
export const hashKeys = (keys: readonly string[]): Promise<string[]> => Promise.all(keys.map((key) => sha256Hex(key)));

/** An item's hashes: of its whole person key (its results' cache key) and of each identifier key. */
export const personHashesSchema = z.object({ person: z.string(), keys: z.array(z.string()) });
export type PersonHashes = z.infer<typeof personHashesSchema>;

/** The hashes of a normalized person whose key is `key`. */
export async function personHashes(person: NormalizedPerson, key: string): Promise<PersonHashes> {
  const [hash, ...keys] = await hashKeys([key, ...identifierKeys(person)]);
  return { person: hash!, keys };
}

// An item's input as a batch stored it: checked, since an older deploy may have written it.
const storedInputSchema = z.partialRecord(z.enum(PERSON_FIELDS), z.string());

/** The identifier keys of a stored item's input (JSON), and its whole person key; null when it does not parse. */
export function storedItemKeys(inputJson: string): { keys: string[]; personKey: string } | null {
  const parsed = storedInputSchema.safeParse(JSON.parse(inputJson));
  if (!parsed.success) return null;
  const person = normalizePerson(parsed.data);
  return { keys: identifierKeys(person), personKey: personKey(person) };
}
