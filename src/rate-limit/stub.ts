import { type Tenant, tenantName } from "../tenant";

/**
 * The limiter that counts for a key: one per customer and environment, so every
 * key of a customer shares one budget per endpoint type, and `test` traffic never
 * uses `live` quota.
 */
export function limiterStub(env: Env, tenant: Tenant) {
  return env.RATE_LIMITER.getByName(tenantName(tenant));
}
