import { objectNamed } from "../base/placement";
import { type Tenant, tenantName } from "../base/tenant";

// Apart from the object's class, so that code reaching the store (the middleware) loads
// outside workerd too (scripts/openapi.ts reads the routes in Node).

/**
 * The store of one customer's Idempotency-Keys in one environment: every API
 * key of the customer shares them, as they share the customer's batches.
 */
export function idempotencyStore(env: Env, tenant: Tenant) {
  return objectNamed(env.IDEMPOTENCY, tenantName(tenant), tenant.jurisdiction);
}
