import { jurisdictionOfBatch } from "../../base/batch-id";
import type { Environment } from "../../base/environment";
import { objectNamed } from "../../base/placement";
import { type Tenant, tenantName } from "../../base/tenant";

/**
 * The WebhookHub of one customer in one environment (src/webhooks/webhook-hub.ts): the only way code
 * reaches it. Here, below the webhooks room, because the batch's alarm publishes its events to it.
 */
export function webhookHub(env: Env, tenant: Tenant) {
  return objectNamed(env.WEBHOOK_HUBS, tenantName(tenant), tenant.jurisdiction);
}

/** The WebhookHub of the batch's customer in the batch's environment. */
export const batchHub = (env: Env, row: { id: string; customer_id: string; environment: Environment }) =>
  webhookHub(env, {
    customerId: row.customer_id,
    environment: row.environment,
    jurisdiction: jurisdictionOfBatch(row.id),
  });
