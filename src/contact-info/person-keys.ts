import * as z from "zod";
import { hexOf, hmacKey, hmacSha256, sha256Hex } from "../base/sha256";
import { type Tenant, tenantName } from "../base/tenant";
import { nameIdentities } from "./names";
import { type NormalizedPerson, normalizePerson, PERSON_FIELDS, personKey } from "./person";

// The keys a person is found by, for erasure, the do-not-enrich list and the person
// index: one per identifier a lookup could have used (an email, a LinkedIn profile,
// each name a finder could have asked with (names.ts), with the company's domain or
// name), each the `personKey` of a person holding only that identifier, so an item
// submitted with more fields, or written another way, is still found by any one of them.
//
// Stored only as keyed hashes: HMAC-SHA-256 under a key of the customer's own, derived
// from the PERSON_KEY_SECRET Worker secret, of the identifier key's SHA-256 (docs/storage.md).
// Keyed, so no hash can be reversed by hashing likely emails, nor matched across customers.
// Batch objects match their items against the keys themselves. An item's hashes are made once,
// at submission (`personHashes`), and travel with it: the do-not-enrich check, the person index
// and the result cache all read them, none hashes again.

/** The person's identifier keys (unhashed): what an erasure matches items by, inside the batch object. */
export function identifierKeys(person: NormalizedPerson): string[] {
  const keys: string[] = [];
  if (person.email !== undefined) keys.push(personKey({ email: person.email }));
  if (person.linkedinSlug !== undefined) keys.push(personKey({ linkedinSlug: person.linkedinSlug }));
  for (const name of nameIdentities(person)) {
    if (person.companyDomain !== undefined)
      keys.push(personKey({ fullName: name, companyDomain: person.companyDomain }));
    if (person.companyName !== undefined) keys.push(personKey({ fullName: name, companyName: person.companyName }));
  }
  return keys;
}

/** Hashes texts under one customer's key. */
export interface PersonHasher {
  hash(texts: readonly string[]): Promise<string[]>;
}

// A Worker secret of at least this many characters: shorter would be guessable.
const SECRET_MIN_LENGTH = 32;
// Customers' keys kept per isolate; past this many the map starts again (a key is one HMAC to remake).
const KEYS_KEPT = 1_000;
const customerKeys = new Map<string, Promise<CryptoKey>>();
let keysOfSecret: string | undefined;

/** The hasher of one customer in one environment (`test` and `live` hash apart). */
export function personHasher(env: Env, owner: Pick<Tenant, "customerId" | "environment">): PersonHasher {
  // Typed as set (wrangler.toml requires it, so a deploy without it is refused), but checked: a
  // deployment whose secret is too short, or a server started without it, must fail here, loudly.
  const secret: string | undefined = env.PERSON_KEY_SECRET;
  if (typeof secret !== "string" || secret.length < SECRET_MIN_LENGTH) {
    throw new Error(`PERSON_KEY_SECRET must be set to a secret of at least ${SECRET_MIN_LENGTH} characters`);
  }
  if (keysOfSecret !== secret || customerKeys.size >= KEYS_KEPT) {
    customerKeys.clear();
    keysOfSecret = secret;
  }
  const name = tenantName(owner);
  let key = customerKeys.get(name);
  if (key === undefined) {
    key = hmacKey(secret).then(async (master) => hmacKey(await hmacSha256(master, `person-keys/1:${name}`)));
    customerKeys.set(name, key);
  }
  const keyed = async (hex: string) => hexOf(new Uint8Array(await hmacSha256(await key, hex)));
  return { hash: (texts) => Promise.all(texts.map(async (text) => keyed(await sha256Hex(text)))) };
}

/** An item's hashes: of its whole person key (its results' cache key) and of each identifier key. */
export const personHashesSchema = z.object({
  person: z.string(),
  keys: z.array(z.string()),
});
export type PersonHashes = z.infer<typeof personHashesSchema>;

/** The hashes of a normalized person whose key is `key`. */
export async function personHashes(hasher: PersonHasher, person: NormalizedPerson, key: string): Promise<PersonHashes> {
  const [hash, ...keys] = await hasher.hash([key, ...identifierKeys(person)]);
  return { person: hash!, keys };
}

// An item's input as a batch stored it: checked, as everything read back from storage is.
const storedInputSchema = z.partialRecord(z.enum(PERSON_FIELDS), z.string());

/** The identifier keys of a stored item's input (JSON), and its whole person key; null when it does not parse. */
export function storedItemKeys(inputJson: string): { keys: string[]; personKey: string } | null {
  const parsed = storedInputSchema.safeParse(JSON.parse(inputJson));
  if (!parsed.success) return null;
  const person = normalizePerson(parsed.data);
  return { keys: identifierKeys(person), personKey: personKey(person) };
}
