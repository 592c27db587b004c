import { objectNamed } from "../base/placement";
import { type Tenant, tenantName } from "../base/tenant";

/**
 * The limiter that counts for a key: one per customer and environment, so every
 * key of a customer shares one budget per endpoint type, and `test` traffic never
 * uses `live` quota.
 */
export function limiterStub(env: Env, tenant: Tenant) {
  return objectNamed(env.RATE_LIMITER, tenantName(tenant), tenant.jurisdiction);
}
