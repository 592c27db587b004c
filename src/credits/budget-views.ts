import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { budgetSettingsSchema } from "./budget";
import { ledgerEntrySchema } from "./ledger";

// The budget's and the ledger's answers, for the document: made under OPENAPI_METADATA (src/base/once.ts),
// so the Worker build drops them.

const credits = () => z.int().min(0);

export const budgetStateSchema = OPENAPI_METADATA
  ? once(() =>
      z
        .object({
          monthlyCredits: credits()
            .nullable()
            .meta({ description: "Credits this UTC calendar month may charge in this environment; null: no budget." }),
          usedThisMonth: credits().meta({
            description:
              "Credits charged this month less those refunded: GET …/me/usage's credits less creditsRefunded over the month.",
          }),
          reserved: credits().meta({
            description:
              "What open batches hold: each reserved its cap (maxCredits, else its estimate's maximum) at submission, and holds it less what it charged until it completes.",
          }),
          remaining: credits()
            .nullable()
            .meta({ description: "monthlyCredits less usedThisMonth and reserved (never below 0); null: no budget." }),
          resetsAt: z.iso
            .datetime()
            .meta({ description: "When the next UTC month starts, and usedThisMonth with it." }),
          alertPercents: z.array(z.int().min(1).max(100)).meta({
            description: "Percents of monthlyCredits whose crossing sends one budget.threshold event per month.",
          }),
          key: z
            .object({
              keyId: z.string(),
              monthlyCredits: credits(),
              usedThisMonth: credits(),
              reserved: credits(),
              remaining: credits(),
            })
            .optional()
            .meta({
              description:
                "The calling key's own monthly cap (set by the operator), when it has one: the same counts, for its batches.",
            }),
        })
        .meta({ id: "Budget" }),
    )
  : notInTheWorker;

export const budgetRequestSchema = OPENAPI_METADATA
  ? once(() =>
      budgetSettingsSchema.meta({
        id: "BudgetRequest",
        example: { monthlyCredits: 5000, alertPercents: [50, 80, 100] },
      }),
    )
  : notInTheWorker;

export const ledgerPageSchema = OPENAPI_METADATA
  ? once(() =>
      z
        .object({
          entries: z.array(ledgerEntrySchema),
          nextCursor: z
            .string()
            .nullable()
            .meta({ description: "Pass it as cursor for the next page; null on the last." }),
        })
        .meta({ id: "LedgerPage" }),
    )
  : notInTheWorker;

/** What a 402 budget_exceeded adds to the problem's members (http/errors.ts, budgetExceeded). */
export const budgetExceededMembers = () => ({
  scope: z
    .enum(["customer", "key"])
    .meta({ description: "Whose budget refused: the customer's in this environment, or the calling key's cap." }),
  monthlyCredits: credits().meta({ description: "That budget: credits per UTC calendar month." }),
  remaining: credits().meta({ description: "Credits that remain of it (less what open batches reserve)." }),
  cap: credits().meta({ description: "What the batch would reserve: its maxCredits, else its estimate's maximum." }),
});
