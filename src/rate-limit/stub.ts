import type { ApiKeyRecord } from "../keys/api-key";

/**
 * The limiter that counts for a key: one per customer and environment, so every
 * key of a customer shares one budget per endpoint type, and `test` traffic never
 * uses `live` quota. The environment cannot contain ":", so names never collide.
 */
export function limiterStub(env: Env, { customerId, environment }: Pick<ApiKeyRecord, "customerId" | "environment">) {
  return env.RATE_LIMITER.getByName(`${environment}:${customerId}`);
}
