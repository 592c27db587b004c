import { env } from "cloudflare:workers";
import { createHash, createHmac } from "node:crypto";
import type { Environment } from "../src/base/environment";
import type { BatchOwner } from "../src/base/tenant";
import type { NewItem } from "../src/contact-info/batch-contract";
import { type NormalizedPerson, normalizePerson, type PersonInput, personKey } from "../src/contact-info/person";
import { identifierKeys, type PersonHashes } from "../src/contact-info/person-keys";

// The keyed hash of src/contact-info/person-keys.ts made again here with node:crypto, so the
// tests check the stored hashes against an implementation that is not ours: HMAC-SHA-256, under
// the customer's key (HMAC of "person-keys/1:<environment>:<customerId>" under the secret), of
// the text's SHA-256 in hex.
export function keyedHash(customerId: string, environment: Environment, text: string): string {
  const secret = env.PERSON_KEY_SECRET; // vitest.config.ts
  const customerKey = createHmac("sha256", secret).update(`person-keys/1:${environment}:${customerId}`).digest();
  return createHmac("sha256", customerKey).update(createHash("sha256").update(text).digest("hex")).digest("hex");
}

/** The hashes the submit makes of a normalized person (personHashes), made again with node:crypto. */
export function keyedHashes(customerId: string, environment: Environment, person: NormalizedPerson): PersonHashes {
  const hash = (text: string) => keyedHash(customerId, environment, text);
  return { person: hash(personKey(person)), keys: identifierKeys(person).map(hash) };
}

/** A valid item as the submit hands it to a new batch (normalized, keyed, hashed), for batches made in their object. */
export function validItem(owner: BatchOwner, input: PersonInput, externalId: string | null = null): NewItem {
  const person = normalizePerson(input);
  const hashes = keyedHashes(owner.customerId, owner.environment, person);
  return { input, externalId, error: null, person, personKey: personKey(person), hashes };
}
