import type { Environment } from "./environment";

/** Whose data something is: one customer in one environment (`test` and `live` never share anything). */
export interface Tenant {
  customerId: string;
  environment: Environment;
}

/** The customer and environment a batch belongs to: reads by any other answer 404. */
export type BatchOwner = Tenant;

/**
 * The name of a tenant's own Durable Objects (its limiter, account and Idempotency-Key
 * store). An environment cannot contain ":", so two tenants' names never collide.
 */
export const tenantName = ({ environment, customerId }: Tenant): string => `${environment}:${customerId}`;
