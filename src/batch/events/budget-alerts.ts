import type { accountStub } from "../../account/stub";
import { log } from "../../base/log";
import type { Tenant } from "../../base/tenant";
import type { BudgetAlert } from "../../credits/budget-charges";
import { budgetThresholdEvent } from "../../credits/budget-event";
import { webhookHub } from "./webhook-hub-stub";

/**
 * Hands the budget.threshold events the account noted to the customer's WebhookHub (one delivery per
 * subscribed endpoint and event, however often handed), then tells the account they are handed over.
 */
export async function handOverAlerts(
  env: Env,
  tenant: Tenant,
  alerts: BudgetAlert[],
  account: ReturnType<typeof accountStub>,
): Promise<void> {
  const hub = webhookHub(env, tenant);
  for (const alert of alerts) {
    const deliveries = await hub.publish({ type: "budget.threshold", ...budgetThresholdEvent(alert, Date.now()) });
    log("budget_threshold_published", { percent: alert.percent, deliveries });
  }
  await account.alertsSent(alerts);
}
