import * as z from "zod";
import { sourceReportSchema } from "../batch/views";
import { type ContactField, emailSchema, phoneSchema } from "../contact-info/contact";
import type { Environment } from "../environment";
import { sha256Hex } from "../sha256";
import type { SourcedResult } from "./item-decision";

/** KV key of a cached result: per environment and requested fields; the person only as a hash of its key. */
export async function resultCacheKey(environment: Environment, fields: readonly ContactField[], personKey: string): Promise<string> {
  return `result:${environment}:${[...fields].sort().join("+")}:${await sha256Hex(personKey)}`;
}

// An entry from before provenance has no `sources`: it does not parse, so it is a miss and is replaced.
const cachedResultSchema = z.object({
  emails: z.array(emailSchema),
  phones: z.array(phoneSchema),
  sources: z.array(sourceReportSchema),
});

export interface ResultCache {
  get(key: string): Promise<SourcedResult | null>;
  put(key: string, result: SourcedResult): Promise<void>;
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
      await kv.put(key, JSON.stringify({ emails, phones, sources }), { expirationTtl: found ? foundTtlSeconds : notFoundTtlSeconds });
    },
  };
}
