import { objectNamed } from "../base/placement";
import { type Tenant, tenantName } from "../base/tenant";

/** The connections object of a customer and environment (the key's tenant). */
export const connectionsStub = (env: Env, tenant: Tenant) =>
  objectNamed(env.MCP_CONNECTIONS, tenantName(tenant), tenant.jurisdiction);
