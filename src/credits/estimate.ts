import * as z from "zod";
import type { Prices } from "../base/config";
import { once } from "../base/once";
import type { NewItem } from "../contact-info/batch-contract";
import type { ContactField } from "../contact-info/contact";
import { intakeCounts } from "../contact-info/leaders";
import { maxItemCharge } from "./credits";

// What a batch would be, told before it is submitted: the response of POST …/estimate.
// Its schema types it, documents it and is estimate_contact_info's output schema: made on first use (src/base/once.ts).

export const estimateSchema = once(() =>
  z
    .object({
      itemCount: z.number().int().min(0).meta({ description: "Items in the body, invalid ones included." }),
      validItems: z.number().int().min(0).meta({ description: "Items that pass validation (duplicates included)." }),
      invalidItems: z
        .number()
        .int()
        .min(0)
        .meta({ description: "Items that would fail at submission with invalid_input: never charged." }),
      duplicateItems: z.number().int().min(0).meta({
        description:
          "Valid items with the same person as an earlier item: they share its result, and are never charged.",
      }),
      cachedItems: z.number().int().min(0).meta({
        description:
          "Of the other valid items, those your result cache would answer now (live only; 0 in test): never charged. An entry may expire before the batch runs.",
      }),
      maxCredits: z.number().int().min(0).meta({
        description:
          "The most the batch could cost at today's prices, if every item left delivered every field asked for; misses cost nothing, so a run usually costs less. Pass it as the submit's maxCredits to hold the batch to it.",
      }),
      remainingCredits: z.number().int().min(0).nullable().meta({
        description:
          "What remains of this month's budget for this key (GET …/me/budget): the customer's, or the key's cap when lower; null when neither is set. A submit whose maxCredits (else this estimate's maxCredits) is more is refused with 402 budget_exceeded.",
      }),
    })
    .meta({ id: "BatchEstimate" }),
);

export type Estimate = z.infer<ReturnType<typeof estimateSchema>>;

/** The estimate of items as submitted, with `cachedItems` of the leaders found in the cache. */
export function estimateOf(
  items: readonly NewItem[],
  leaders: readonly (number | null)[],
  fields: readonly ContactField[],
  cachedItems: number,
  prices: Prices,
  verifiers: number,
): Omit<Estimate, "remainingCredits"> {
  const { total, invalid, queued, duplicates } = intakeCounts(items, leaders);
  return {
    itemCount: total,
    validItems: total - invalid,
    invalidItems: invalid,
    duplicateItems: duplicates,
    cachedItems,
    maxCredits: (queued - cachedItems) * maxItemCharge(fields, prices, verifiers),
  };
}
