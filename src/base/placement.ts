import type { Jurisdiction } from "./jurisdiction";

// What workerd (wrangler dev, the tests) answers to any jurisdiction: it has none.
const WORKERD_REFUSAL = "Jurisdiction restrictions are not implemented in workerd";

/**
 * The one place a Durable Object is found by name, for every object a customer has
 * (batch, account, limiter, Idempotency-Keys, webhook sender): with a jurisdiction,
 * in `namespace.jurisdiction(j)`, where Cloudflare runs it and keeps its storage in
 * that region only. The same name in another jurisdiction is another object.
 *
 * workerd refuses jurisdictions, so locally the object is named apart instead
 * (`eu/<name>`): a different object, as on the platform, but not placed anywhere.
 * Only workerd's own refusal is taken for that; any other error is thrown.
 */
export function objectNamed<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
  jurisdiction: Jurisdiction | undefined,
): DurableObjectStub<T> {
  if (jurisdiction === undefined) return byName(namespace, name);
  let restricted: DurableObjectNamespace<T>;
  try {
    restricted = namespace.jurisdiction(jurisdiction);
  } catch (error) {
    if (!(error instanceof Error && error.message.includes(WORKERD_REFUSAL))) throw error;
    return byName(namespace, localName(name, jurisdiction));
  }
  return byName(restricted, name);
}

const byName = <T extends Rpc.DurableObjectBranded | undefined>(namespace: DurableObjectNamespace<T>, name: string) =>
  namespace.get(namespace.idFromName(name));

/** The name workerd gives an object of `jurisdiction` (objectNamed); the tests read objects by it. */
export const localName = (name: string, jurisdiction: Jurisdiction): string => `${jurisdiction}/${name}`;
