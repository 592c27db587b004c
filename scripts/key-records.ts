// The key tool's reads of the API_KEYS namespace: a key's record by its id (through the id
// entry, to the record under the key's hash), a customer's keys, what `list` shows of them.
// The commands that write (scripts/keys.ts) build on these.
import { type ApiKeyRecord, apiKeyRecordSchema, kvKey } from "../src/tools-api";
import { fail } from "./cli";
import type { KvStore } from "./kv-namespace";

// What `list` shows: the id entry's metadata, less anything not in the record's shape
// (a webhook secret, had a hand edit put one there).
export const listedRecordSchema = apiKeyRecordSchema.omit({ webhookSecret: true });

/** The stored record, or undefined if it is not one: never echoed, since it holds the webhook secret. */
function parseRecord(stored: string): ApiKeyRecord | undefined {
  try {
    return apiKeyRecordSchema.safeParse(JSON.parse(stored)).data;
  } catch {
    return undefined;
  }
}

/** Key `keyId`'s hash and record; a usage mistake, saying what to do, when it has none (or not a valid one). */
export async function readKey(
  keyId: string,
  kv: KvStore,
  remote: boolean,
): Promise<{ hash: string; record: ApiKeyRecord }> {
  const hash =
    (await kv.get(kvKey.byId(keyId))) ??
    fail(
      `no key ${keyId} in the ${remote ? "deployed" : "local"} store; \`npm run keys -- list${remote ? " --remote" : ""}\` shows the ids`,
    );
  const stored = (await kv.get(kvKey.byHash(hash))) ?? fail(`key ${keyId} has no record`);
  const record =
    parseRecord(stored) ??
    fail(`the record of key ${keyId} is not a valid key record (the Worker refuses the key); create a new key`);
  return { hash, record };
}

export const keyIdOf = (entry: { name: string }): string => entry.name.slice(kvKey.byId("").length);

/** Every key of a customer in one environment: the keys that share its rate limits. */
export async function keysOf(customerId: string, environment: string, kv: KvStore, remote: boolean) {
  const listed = (await kv.list(kvKey.byId(""))).filter((entry) => {
    const metadata = entry.metadata as Partial<ApiKeyRecord> | undefined;
    return !metadata || (metadata.customerId === customerId && metadata.environment === environment);
  });
  const keys = [];
  for (const entry of listed) keys.push(await readKey(keyIdOf(entry), kv, remote));
  return keys.filter(({ record }) => record.customerId === customerId && record.environment === environment);
}

/** One line of `list`: the record's id, owner, state and limits, never its webhook secret. */
export function describeKey(r: ApiKeyRecord): string {
  const limits = Object.entries(r.rateLimits ?? {})
    .map(([type, { limit, windowSeconds }]) => `${type}=${limit}/${windowSeconds}s`)
    .join(" ");
  return [
    r.keyId,
    r.environment,
    r.customerId,
    r.revokedAt ? `revoked ${r.revokedAt}` : "active",
    limits || "default limits",
    r.name,
    ...(r.jurisdiction ? [`jurisdiction ${r.jurisdiction}`] : []),
    ...(r.monthlyCredits !== undefined ? [`monthly cap ${r.monthlyCredits} credits`] : []),
  ].join("\t");
}
