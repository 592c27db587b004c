import type { Prices } from "../base/config";
import type { ItemOutcome } from "../contact-info/batch-contract";
import type { SourceReport } from "../contact-info/batch-views";
import type { ContactField } from "../contact-info/contact";
import { itemErrors } from "../contact-info/item-errors";
import type { ContactKind } from "./feedback";
import type { LedgerLine } from "./ledger";

// What items cost, in credits: pure, so the batch object (which charges) and the
// estimate (which bounds the charge) read one rule.

/**
 * An item pays once for each kind of contact it delivers (several emails of one
 * person cost one email), and for each verification of the emails it delivers
 * (a verifier in its `sources` that judged them). A miss, a failure and a result
 * from the customer's cache cost nothing (a cached result verified again: its verifications); followers (duplicates) never reach
 * here, they take 0.
 */
export const itemCharge = (outcome: ItemOutcome, prices: Prices): number =>
  chargeParts(outcome, prices).reduce((sum, { credits }) => sum + credits, 0);

/** What an item pays for one kind of contact: an email with its `verifications`, or a phone. */
export const contactPrice = (contact: ContactKind, prices: Prices, verifications: number): number =>
  contact === "phone" ? prices.phone : prices.email + verifications * prices.verification;

/** The verifications an item's sources paid for: each verifier that judged its emails. */
export const verificationsOf = (sources: readonly Pick<SourceReport, "kind" | "outcome">[]): number =>
  sources.filter((source) => source.kind === "verifier" && source.outcome === "found").length;

/** The most one item asking for `fields` can cost, with `verifiers` email verifiers configured. */
export const maxItemCharge = (fields: readonly ContactField[], prices: Prices, verifiers: number): number =>
  (fields.includes("email") ? contactPrice("email", prices, verifiers) : 0) +
  (fields.includes("phone") ? contactPrice("phone", prices, verifiers) : 0);

export type ChargedOutcome = ItemOutcome & { credits: number };

/**
 * Prices outcomes in order against the batch's cap: an outcome whose charge would
 * take `charged` past `maxCredits` (null: no cap) becomes `budget_exhausted`, at
 * no cost. Only items still pending (`pending`) are recorded, so only they use
 * the budget; the others pass through, unrecorded.
 */
export function chargeOutcomes(
  outcomes: readonly ItemOutcome[],
  pending: ReadonlySet<number>,
  budget: { charged: number; maxCredits: number | null },
  prices: Prices,
): { outcomes: ChargedOutcome[]; credits: number } {
  let credits = 0;
  const charged = outcomes.map((outcome): ChargedOutcome => {
    if (!pending.has(outcome.index)) return { ...outcome, credits: 0 };
    const cost = itemCharge(outcome, prices);
    if (cost === 0) return { ...outcome, credits: 0 };
    if (budget.maxCredits !== null && budget.charged + credits + cost > budget.maxCredits) {
      return {
        index: outcome.index,
        status: "failed",
        error: itemErrors.budgetExhausted,
        sources: outcome.sources,
        credits: 0,
      };
    }
    credits += cost;
    return { ...outcome, credits: cost };
  });
  return { outcomes: charged, credits };
}

type ChargePart = Omit<LedgerLine, "at" | "kind" | "index">;

/**
 * What an item pays, by kind of contact (the ledger's lines; their sum is `itemCharge`): an email (the
 * first found, its source) with the verifications of the emails it delivers, and a phone. A miss, a
 * failure and a result from the customer's cache pay nothing, but a cached result verified again pays
 * its verifications.
 */
export function chargeParts(outcome: ItemOutcome, prices: Prices): ChargePart[] {
  if (outcome.status !== "completed") return [];
  const verifications = verificationsOf(outcome.sources);
  const [email] = outcome.emails;
  const [phone] = outcome.phones;
  const parts: ChargePart[] = [];
  if (email && !outcome.fromCache)
    parts.push({ contact: "email", source: email.source, credits: contactPrice("email", prices, verifications) });
  else if (email && outcome.reverified)
    parts.push({ contact: "email", source: email.source, credits: verifications * prices.verification });
  if (phone && !outcome.fromCache)
    parts.push({ contact: "phone", source: phone.source, credits: contactPrice("phone", prices, verifications) });
  return parts.filter(({ credits }) => credits > 0);
}
