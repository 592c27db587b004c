import { ENVIRONMENTS, type Environment } from "./environment";
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

/** The tenant a key record (or anything naming one) belongs to, and nothing else of it: what crosses into Durable Objects. */
export const tenantOf = ({ customerId, environment, jurisdiction }: Tenant): Tenant =>
  jurisdiction ? { customerId, environment, jurisdiction } : { customerId, environment };

/**
 * The name of a tenant's own Durable Objects (its limiter and its account). An environment
 * cannot contain ":", so two tenants' names never collide.
 */
export const tenantName = ({ environment, customerId }: Tenant): string => `${environment}:${customerId}`;

/** The environment a tenant's object was named for (tenantName), or null for another name. */
export function environmentOfName(name: string | undefined): Environment | null {
  const environment = name?.slice(0, name.indexOf(":"));
  return ENVIRONMENTS.find((known) => known === environment) ?? null;
}
