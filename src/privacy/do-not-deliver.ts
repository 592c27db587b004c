import { accountStub } from "../account/stub";
import { jurisdictionOfBatch } from "../base/batch-id";
import type { Contacts } from "../contact-info/contact";
import { personHasher } from "../contact-info/person-keys";
import { deliveryKey } from "../credits/feedback";
import type { Resolution } from "../enrichment/enricher";
import type { ItemMessage } from "../queue-messages/item-message";

// The customer's do-not-deliver list (values reported through POST …/feedback) is applied to what
// the attempts found, fresh or from the result cache, before anything is recorded: a listed value
// is never delivered to that customer again, nor charged. Only for a customer whose list holds
// something (the suppression check says so): one more account call per group of messages then.

type Listed = (kind: "email" | "phone", value: string) => boolean;

/** A resolution with every value on the customer's do-not-deliver list taken out. */
export type UndeliverableScreen = (resolution: Resolution) => Resolution;

function withhold({ emails, phones }: Contacts, listed: Listed): Contacts {
  return {
    emails: emails.filter(({ address }) => !listed("email", address)),
    phones: phones.filter(({ number }) => !listed("phone", number)),
  };
}

function screened(resolution: Resolution, listed: Listed): Resolution {
  if (resolution.kind === "retry") return { ...resolution, found: withhold(resolution.found, listed) };
  const { result } = resolution;
  if (result.status !== "completed") return resolution;
  const kept = withhold(result, listed);
  if (kept.emails.length === result.emails.length && kept.phones.length === result.phones.length) return resolution;
  if (kept.emails.length + kept.phones.length > 0) return { ...resolution, result: { ...result, ...kept } };
  // Nothing left: not_found, with no reason (the values were withheld, not rejected by verification).
  const { reason: _, ...rest } = result;
  return { ...resolution, result: { ...rest, ...kept, outcome: "not_found" } };
}

const contactsOf = (resolution: Resolution): Contacts =>
  resolution.kind === "retry"
    ? resolution.found
    : resolution.result.status === "completed"
      ? resolution.result
      : { emails: [], phones: [] };

/**
 * The screen that takes the customer's listed values out of the group's resolutions (the queue
 * passes each through it, queue/group-plan.ts); null when none of them found a listed value.
 */
export async function undeliverableScreen(
  env: Env,
  body: Pick<ItemMessage, "batchId" | "customerId" | "environment"> | undefined,
  resolutions: readonly Resolution[],
): Promise<UndeliverableScreen | null> {
  if (body === undefined) return null;
  const tenant = {
    customerId: body.customerId,
    environment: body.environment,
    jurisdiction: jurisdictionOfBatch(body.batchId),
  };
  const texts = new Set<string>();
  for (const resolution of resolutions) {
    const { emails, phones } = contactsOf(resolution);
    for (const { address } of emails) texts.add(deliveryKey("email", address));
    for (const { number } of phones) texts.add(deliveryKey("phone", number));
  }
  if (texts.size === 0) return null;
  const ordered = [...texts];
  const hashes = await personHasher(env, tenant).hash(ordered);
  const listedHashes = new Set(await accountStub(env, tenant).privacyAmong("do_not_deliver", hashes));
  if (listedHashes.size === 0) return null;
  const listedTexts = new Set(ordered.filter((_, i) => listedHashes.has(hashes[i] ?? "")));
  const listed: Listed = (kind, value) => listedTexts.has(deliveryKey(kind, value));
  return (resolution) => screened(resolution, listed);
}
