// Submit a batch, or ask what it would be: the operations behind POST …/person/contact-info,
// …/estimate and the MCP tools that enrich.

import { newBatchId } from "../base/batch-id";
import { readConfig } from "../base/config";
import type { Environment } from "../base/environment";
import type { NewItem } from "../contact-info/batch-contract";
import { type IntakeCounts, intakeCounts, leaderIndexes } from "../contact-info/leaders";
import { normalizePerson, personKey } from "../contact-info/person";
import { type PersonHasher, personHasher, personHashes } from "../contact-info/person-keys";
import { budgetState, remainingFor, reserveCap } from "../credits/budget-operations";
import { type Estimate, estimateOf } from "../credits/estimate";
import { itemsFromSource } from "../crm/connection-operations";
import { verifiersFor } from "../enrichment/providers";
import { countCached, resultCacheKey } from "../enrichment/result-cache";
import { webhookNotConfigured } from "../http/errors";
import type { Caller } from "../operations/caller";
import { operation } from "../rate-limit/operation";
import { destinationOf } from "../webhooks/webhook-destination";
import { chunkByCloneBytes } from "./rpc-chunks";
import { batchStub } from "./stub";
import { invalidWebhookUrl, parseSubmission, type Submission } from "./submission";

function receiptMessage({ total, invalid, queued, duplicates }: IntakeCounts): string {
  return (
    `Accepted ${total} item(s); ${queued} queued for processing` +
    (duplicates > 0 ? `, ${duplicates} merged as duplicates of an earlier item` : "") +
    (invalid > 0 ? `, ${invalid} failed validation (see each item's error).` : ".") +
    " Poll the Location URL for results."
  );
}

/**
 * The submitted items, each valid one normalized and hashed once (its key merges duplicates; all three
 * travel in its queue message and are stored with it), and their leaders.
 */
async function intake(submission: Submission, hasher: PersonHasher) {
  const items = await Promise.all(
    submission.items.map(async ({ input, externalId, error }): Promise<NewItem> => {
      if (error) return { input, externalId, error };
      const person = normalizePerson(input);
      const key = personKey(person);
      return { input, externalId, error, person, personKey: key, hashes: await personHashes(hasher, person, key) };
    }),
  );
  return { items, leaders: leaderIndexes(items) };
}

/**
 * Reads a submit's body (unknown JSON) with the one validation path every door shares;
 * a door that holds fewer items a call (MCP's enrich) passes its own `maxItems`.
 */
export function readSubmission({ env, environment }: Caller, body: unknown, maxItems?: number): Submission {
  const { maxBatchItems } = readConfig(env);
  return parseSubmission(body, Math.min(maxItems ?? maxBatchItems, maxBatchItems), environment);
}

/**
 * Reads a submit's body as the REST routes take it: `items`, or `source` (a CRM list, read through the
 * customer's connection into items whose externalId is the record id), then the one validation path.
 */
export async function readSubmissionOrSource(caller: Caller, body: unknown): Promise<Submission> {
  const { maxBatchItems } = readConfig(caller.env);
  return readSubmission(caller, await itemsFromSource(caller, body, maxBatchItems));
}

/** The estimate's maximum for items as submitted, none taken from the cache (it may expire before they run). */
function maxCreditsOf(
  env: Env,
  environment: Environment,
  submission: Submission,
  items: NewItem[],
  leaders: (number | null)[],
) {
  const config = readConfig(env);
  const verifiers = verifiersFor(environment, env, config).length;
  return estimateOf(items, leaders, submission.fields, 0, config.prices, verifiers).maxCredits;
}

/** What the batch would be and cost at most; creates nothing, charges nothing. */
export const estimateContactInfo = operation(
  "contact_info_request",
  async function estimateContactInfo(caller: Caller, submission: Submission): Promise<Estimate> {
    const { env, apiKey, environment } = caller;
    const config = readConfig(env);
    const { items, leaders } = await intake(submission, personHasher(env, apiKey));
    // Only live results are cached (enricher.ts), and never a customer's with a jurisdiction;
    // the leaders are what the batch would look up.
    let cachedItems = 0;
    if (environment === "live" && !apiKey.jurisdiction) {
      const owner = { customerId: apiKey.customerId, environment };
      const keys = items.flatMap((item, index) =>
        item.error === null && leaders[index] === null && "hashes" in item
          ? [resultCacheKey(owner, submission.fields, item.hashes.person)]
          : [],
      );
      cachedItems = await countCached(env.RESULT_CACHE, keys);
    }
    const verifiers = verifiersFor(environment, env, config).length;
    const estimate = estimateOf(items, leaders, submission.fields, cachedItems, config.prices, verifiers);
    return { ...estimate, remainingCredits: remainingFor(await budgetState(caller)) };
  },
);

export interface SubmitReceipt {
  batchId: string;
  /** The batch's status path, /v2/{environment}/person/contact-info/{id}. */
  location: string;
  /** false when the batch existed already (an idempotent request resumed). */
  created: boolean;
  itemCount: number;
  message: string;
}

/**
 * A 400 when the webhook URL's name resolves inside (webhooks/webhook-destination.ts). A resolver that
 * cannot answer lets the batch be created: each delivery checks again before it is sent.
 */
async function refuseInsideDestination(env: Env, url: string, environment: Environment): Promise<void> {
  const destination = await destinationOf(env, url, environment);
  if (destination.kind === "refused") throw invalidWebhookUrl(destination.problem);
}

/**
 * Creates the batch and queues its valid items. `batchId` is one chosen before (an
 * Idempotency-Key's); `origin` makes the status URL webhooks carry absolute.
 */
export const submitContactInfo = operation(
  "contact_info_request",
  async function submitContactInfo(
    caller: Caller,
    submission: Submission,
    { batchId: chosenId, origin }: { batchId?: string; origin: string },
  ): Promise<SubmitReceipt> {
    const { env, apiKey, environment } = caller;
    if (submission.webhookUrl && !apiKey.webhookSecret) {
      throw webhookNotConfigured();
    }
    if (submission.webhookUrl) await refuseInsideDestination(env, submission.webhookUrl, environment);
    const batchId = chosenId ?? newBatchId(apiKey.jurisdiction);
    const location = `/v2/${environment}/person/contact-info/${batchId}`;
    const { items, leaders } = await intake(submission, personHasher(env, apiKey));
    // Reserved before the batch exists, so a refusal creates nothing; under a budget, the batch is held to it.
    const cap = submission.maxCredits ?? maxCreditsOf(env, environment, submission, items, leaders);
    const { limited } = await reserveCap(caller, batchId, cap);
    const createdAt = new Date().toISOString();
    const stub = batchStub(env, batchId);
    // One call for almost every batch; one too large for a call goes in chunks, staged, then the last with the batch.
    const chunks = chunkByCloneBytes(items);
    let stagedItems = 0;
    for (const chunk of chunks.slice(0, -1)) {
      await stub.stage({
        createdAt,
        firstIndex: stagedItems,
        items: chunk,
        leaders: leaders.slice(stagedItems, stagedItems + chunk.length),
      });
      stagedItems += chunk.length;
    }
    const batch = await stub.create({
      id: batchId,
      customerId: apiKey.customerId,
      environment,
      keyId: apiKey.keyId,
      fields: submission.fields,
      createdAt,
      items: chunks[chunks.length - 1]!,
      leaders: leaders.slice(stagedItems),
      stagedItems,
      maxCredits: limited ? cap : submission.maxCredits,
      maxAgeDays: submission.maxAgeDays,
      statusUrl: new URL(location, origin).href,
      ...(submission.webhookUrl
        ? { webhook: { url: submission.webhookUrl, secret: apiKey.webhookSecret!, events: submission.webhookEvents } }
        : {}),
    });
    const message = receiptMessage(intakeCounts(items, leaders));
    return { batchId, location, created: batch.created, itemCount: batch.totalItems, message };
  },
);
