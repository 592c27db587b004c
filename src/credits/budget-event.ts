import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import type { BudgetAlert } from "./budget-charges";

// The budget.threshold event: sent to the webhook endpoints subscribed to it when the month's charges
// reach one of the budget's alert percents, once per month and percent.

export const budgetThresholdEventSchema = OPENAPI_METADATA
  ? once(() =>
      z
        .object({
          type: z.literal("budget.threshold"),
          timestamp: z.iso.datetime(),
          data: z.object({
            percent: z.number().int().min(1).max(100).meta({ description: "The alert percent reached." }),
            usedThisMonth: z
              .number()
              .int()
              .min(0)
              .meta({ description: "Credits charged this month when it was reached." }),
            monthlyCredits: z.number().int().min(0).meta({ description: "The monthly budget then." }),
          }),
        })
        .meta({ id: "BudgetThresholdEvent" }),
    )
  : notInTheWorker;

/** The event's id (one per month and percent, so a hand-over repeated makes no second delivery) and body. */
export function budgetThresholdEvent(alert: BudgetAlert, now: number): { eventId: string; payload: string } {
  const { percent, usedThisMonth, monthlyCredits } = alert;
  const event: z.infer<ReturnType<typeof budgetThresholdEventSchema>> = {
    type: "budget.threshold",
    timestamp: new Date(now).toISOString(),
    data: { percent, usedThisMonth, monthlyCredits },
  };
  return { eventId: `evt_budget_${alert.month.replace("-", "")}_${percent}`, payload: JSON.stringify(event) };
}
