import { type Environment, isEnvironment } from "./environment";
import type { Jurisdiction } from "./jurisdiction";

/** Whose data something is: one customer in one environment (`test` and `live` never share anything). */
export interface Tenant {
  customerId: string;
  environment: Environment;
  /** Where the customer's objects live; absent for customers without a restriction (placement.ts). */
  jurisdiction?: Jurisdiction;
}

/** The customer and environment a batch belongs to: reads by any other answer 404. */
export type BatchOwner = Tenant;

/**
 * The name of a tenant's own Durable Objects (its limiter, account and Idempotency-Key
 * store). An environment cannot contain ":", so two tenants' names never collide.
 */
/** The tenant a key record (or anything naming one) belongs to, and nothing else of it: what crosses into Durable Objects. */
export const tenantOf = ({ customerId, environment, jurisdiction }: Tenant): Tenant =>
  jurisdiction ? { customerId, environment, jurisdiction } : { customerId, environment };

export const tenantName = ({ environment, customerId }: Tenant): string => `${environment}:${customerId}`;

/**
 * The tenant of an object named by `tenantName` (its `ctx.id.name`, read inside the object), or null.
 * workerd's name of an object placed in a jurisdiction starts `<jurisdiction>/` (placement.ts).
 */
export function tenantOfName(name: string | undefined): Tenant | null {
  const match = /^(?:[a-z]+\/)?([a-z]+):(.+)$/s.exec(name ?? "");
  return match && isEnvironment(match[1]!) ? { environment: match[1], customerId: match[2]! } : null;
}
