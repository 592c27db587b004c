import { objectNamed } from "../base/placement";
import { type Tenant, tenantName } from "../base/tenant";

/** The account of one customer in one environment: its batch list and usage. */
export function accountStub(env: Env, tenant: Tenant) {
  return objectNamed(env.ACCOUNTS, tenantName(tenant), tenant.jurisdiction);
}
