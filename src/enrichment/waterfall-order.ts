import type { Learned, SourceRecord } from "../account/learned";
import type { ContactProvider } from "./provider";

// The learned order of the waterfall (docs/architecture.md, "A waterfall that learns its order"), pure:
// the paid finders asked per item by their expected cost per verified hit, from what the customer's
// scorecards say of them, for the item's company domain and overall.

// How many calls of evidence the overall rate counts as, against a domain's own: a domain seen a few
// times is judged mostly by the source's overall rate, one seen often by its own.
const PRIOR_WEIGHT = 4;

/** The chance a call about an item of this domain yields a verified hit, shrunk toward the source's overall rates. */
export function verifiedHitRate(overall: SourceRecord | undefined, domain: SourceRecord | undefined): number {
  // Laplace's rule for a source never asked: a half.
  const hitPrior = ((overall?.hits ?? 0) + 1) / ((overall?.calls ?? 0) + 2);
  const validPrior = ((overall?.valid ?? 0) + 1) / ((overall?.hits ?? 0) + 2);
  const hitRate = ((domain?.hits ?? 0) + PRIOR_WEIGHT * hitPrior) / ((domain?.calls ?? 0) + PRIOR_WEIGHT);
  const validRate = ((domain?.valid ?? 0) + PRIOR_WEIGHT * validPrior) / ((domain?.hits ?? 0) + PRIOR_WEIGHT);
  return hitRate * validRate;
}

/**
 * The providers in the order to ask them for an item of `domain`. Free sources (our directory, the
 * pattern: no price) keep their places; the paid ones fill theirs cheapest expected cost per verified
 * hit first (price / verifiedHitRate; ties keep the configured order). With probability `exploration`
 * (`random`, seeded in tests) the paid ones go in a random order instead, so a source that fell behind
 * is still tried now and then and its record stays current.
 */
export function orderFinders(
  providers: readonly ContactProvider[],
  prices: ReadonlyMap<string, number>,
  learned: Learned,
  domain: string | undefined,
  exploration: number,
  random: () => number,
): ContactProvider[] {
  const paid = providers
    .map((provider, position) => ({ provider, position, price: prices.get(provider.name) ?? 0 }))
    .filter(({ price }) => price > 0);
  if (paid.length < 2) return [...providers];
  const records = domain === undefined ? undefined : learned.domains[domain];
  let ordered: typeof paid;
  if (random() < exploration) {
    ordered = [...paid];
    for (let i = ordered.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ordered[i], ordered[j]] = [ordered[j]!, ordered[i]!];
    }
  } else {
    const cost = (name: string, price: number) => price / verifiedHitRate(learned.sources[name], records?.[name]);
    ordered = [...paid].sort(
      (a, b) => cost(a.provider.name, a.price) - cost(b.provider.name, b.price) || a.position - b.position,
    );
  }
  const result = [...providers];
  paid.forEach(({ position }, i) => {
    result[position] = ordered[i]!.provider;
  });
  return result;
}
