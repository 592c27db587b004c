import * as z from "zod";
import { type CacheOwner, verdictCacheKey } from "./result-cache";
import { VERDICTS, type Verdict } from "./verifier";

// Verdicts in the RESULT_CACHE namespace (docs/storage.md), per customer and
// address, so a person found again is not verified again. Only verdicts on
// addresses an item returns (valid, catch_all) are kept: those are the ones the
// erasure of a batch can name and purge (privacy/storage/cache-purge.ts).

// `verifiedAt`: when the verifier told.
const cachedVerdictSchema = z.object({
  result: z.enum(VERDICTS),
  role: z.boolean(),
  verifier: z.string(),
  verifiedAt: z.iso.datetime(),
});
type CachedVerdict = z.infer<typeof cachedVerdictSchema>;

export interface VerdictCache {
  get(address: string): Promise<CachedVerdict | null>;
  put(address: string, verdict: Verdict, verifier: string, verifiedAt: string): Promise<void>;
}

export function kvVerdictCache(kv: KVNamespace, owner: CacheOwner, ttlSeconds: number): VerdictCache {
  return {
    async get(address) {
      const parsed = cachedVerdictSchema.safeParse(
        await kv.get(await verdictCacheKey(owner, address), { type: "json" }),
      );
      return parsed.success ? parsed.data : null;
    },
    async put(address, { result, role }, verifier, verifiedAt) {
      if (result !== "valid" && result !== "catch_all") return;
      await kv.put(await verdictCacheKey(owner, address), JSON.stringify({ result, role, verifier, verifiedAt }), {
        expirationTtl: ttlSeconds,
      });
    },
  };
}
