import type { ContactField } from "../contact-info/contact";
import type { Environment } from "../environment";
import { sha256Hex } from "../sha256";
import type { FindResult } from "./provider";

/** KV key of a cached result: per environment and requested fields; the person only as a hash of its key. */
export async function resultCacheKey(environment: Environment, fields: readonly ContactField[], personKey: string): Promise<string> {
  return `result:${environment}:${[...fields].sort().join("+")}:${await sha256Hex(personKey)}`;
}

export interface ResultCache {
  get(key: string): Promise<FindResult | null>;
  put(key: string, result: FindResult): Promise<void>;
}

/** Found results are kept `foundTtlSeconds`; "not found" only `notFoundTtlSeconds`, as sources keep growing. */
export function kvResultCache(kv: KVNamespace, foundTtlSeconds: number, notFoundTtlSeconds: number): ResultCache {
  return {
    get: (key) => kv.get<FindResult>(key, { type: "json" }),
    async put(key, result) {
      const found = result.emails.length + result.phones.length > 0;
      await kv.put(key, JSON.stringify({ emails: result.emails, phones: result.phones }), {
        expirationTtl: found ? foundTtlSeconds : notFoundTtlSeconds,
      });
    },
  };
}
