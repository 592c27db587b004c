import * as z from "zod";
import type { Environment } from "../base/environment";
import { sha256Hex } from "../base/sha256";
import { fieldsSchema } from "../batch/submission";
import { sourceReportSchema } from "../contact-info/batch-views";
import { CONTACT_FIELDS, type ContactField, emailSchema, phoneSchema } from "../contact-info/contact";
import type { PersonHasher } from "../contact-info/person-keys";

// The RESULT_CACHE namespace (docs/storage.md): read by the enricher, written and
// erased only by the batch object that recorded the result (see contact-info-batch.ts).

const fieldsPart = (fields: readonly ContactField[]) => [...fields].sort().join("+");

export type CacheOwner = { customerId: string; environment: Environment };

/**
 * KV key of a cached result: one customer's, in one environment, for the
 * requested fields; the person only as the hash of its key (made once, at
 * submission: contact-info/person-keys.ts). No entry serves another customer.
 */
export const resultCacheKey = (
  { customerId, environment }: CacheOwner,
  fields: readonly ContactField[],
  personHash: string,
) => `result:${environment}:${encodeURIComponent(customerId)}:${fieldsPart(fields)}:${personHash}`;

/**
 * KV key of a cached verdict on an address (src/enrichment/verdict-cache.ts): the
 * customer's, in one environment; the address only as a hash. Here beside the
 * result's key because the erasure purge deletes both.
 */
export async function verdictCacheKey({ customerId, environment }: CacheOwner, address: string): Promise<string> {
  return `verdict:${environment}:${encodeURIComponent(customerId)}:${await sha256Hex(address.toLowerCase())}`;
}

/** Every key a batch's people may be cached under: the customer's, under the keyed hash of each person key (person-keys.ts). */
export async function erasableCacheKeys(
  owner: CacheOwner,
  fields: readonly ContactField[],
  personKeys: readonly string[],
  hasher: PersonHasher,
): Promise<string[]> {
  return (await hasher.hash(personKeys)).map((hash) => resultCacheKey(owner, fields, hash));
}

// Every set of fields a batch may ask for: its results are cached under each.
const FIELD_SETS: ContactField[][] = [[]];
for (const field of CONTACT_FIELDS) FIELD_SETS.push(...FIELD_SETS.map((set) => [...set, field]));
FIELD_SETS.shift();

/** The keys results for these people (hashes of their person keys) may be cached under, whatever fields were asked. */
export const cacheKeysOfPeople = (owner: CacheOwner, personHashes: readonly string[]): string[] =>
  FIELD_SETS.flatMap((fields) => personHashes.map((hash) => resultCacheKey(owner, fields, hash)));

// Checked when read: an entry that does not parse is a miss, and is replaced.
const cachedResultSchema = z.object({
  emails: z.array(emailSchema),
  phones: z.array(phoneSchema),
  sources: z.array(sourceReportSchema),
});
type CachedResult = z.infer<typeof cachedResultSchema>;

// Keys one bulk read of KV takes at most.
const MAX_KEYS_PER_READ = 100;

/** How many of `keys` hold a usable entry (what an item would be served from): 100 keys a read. */
export async function countCached(kv: KVNamespace, keys: readonly string[]): Promise<number> {
  let cached = 0;
  for (let start = 0; start < keys.length; start += MAX_KEYS_PER_READ) {
    const values = await kv.get(keys.slice(start, start + MAX_KEYS_PER_READ), { type: "json" });
    for (const value of values.values()) if (cachedResultSchema.safeParse(value).success) cached++;
  }
  return cached;
}

export interface ResultCache {
  get(key: string): Promise<CachedResult | null>;
  put(key: string, result: CachedResult): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Found results are kept `foundTtlSeconds`; "not found" only `notFoundTtlSeconds`, as sources keep growing. */
export function kvResultCache(kv: KVNamespace, foundTtlSeconds: number, notFoundTtlSeconds: number): ResultCache {
  return {
    async get(key) {
      const parsed = cachedResultSchema.safeParse(await kv.get(key, { type: "json" }));
      return parsed.success ? parsed.data : null;
    },
    async put(key, { emails, phones, sources }) {
      const found = emails.length + phones.length > 0;
      await kv.put(key, JSON.stringify({ emails, phones, sources }), {
        expirationTtl: found ? foundTtlSeconds : notFoundTtlSeconds,
      });
    },
    delete: (key) => kv.delete(key),
  };
}

/** Whose entries a batch's results are, and for which fields, from its row (checked, as everything read back is). */
export function batchCacheScope(row: { customer_id: string; environment: Environment; fields: string }) {
  return {
    owner: { customerId: row.customer_id, environment: row.environment },
    fields: fieldsSchema.parse(JSON.parse(row.fields)),
  };
}
