// Batches made and watched straight in their Durable Objects, below the API: a batch whose
// messages only the test delivers, a new batch's arguments, its fan-out's progress, its rest.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { readConfig } from "../src/base/config";
import { readBatchRow } from "../src/batch/batch-row";
import type { ContactInfoBatch } from "../src/batch/contact-info-batch";
import { nextStep } from "../src/batch/next-step";
import { batchStub } from "../src/batch/stub";
import { DEFAULT_MAX_AGE_DAYS } from "../src/batch/submission";
import type { NewBatch } from "../src/contact-info/batch-contract";
import type { ContactField } from "../src/contact-info/contact";
import type { PersonInput } from "../src/contact-info/person";
import { person } from "./fixtures";
import { faultyItemQueue, itemMessage } from "./item-queue";
import { validItem } from "./keyed-hash";
import { createKey } from "./test-keys";
import { until } from "./until";

/**
 * A batch created straight in its Durable Object, with no fan-out, so the test
 * alone decides which messages the consumer sees; and the messages it would get.
 */
export async function createStoredBatch(
  items: PersonInput[],
  owner?: Awaited<ReturnType<typeof createKey>>,
  fields: ContactField[] = ["email", "phone"],
) {
  const { key, record } = owner ?? (await createKey());
  const id = crypto.randomUUID();
  // Its messages vanish, so only what the test delivers is processed.
  const queue = faultyItemQueue(async () => {});
  await batchStub(env, id).create({
    id,
    customerId: record.customerId,
    environment: "test",
    keyId: record.keyId,
    fields,
    createdAt: new Date().toISOString(),
    statusUrl: `https://api.test/v2/test/person/contact-info/${id}`,
    items: items.map((input) => validItem({ customerId: record.customerId, environment: "test" }, input)),
    leaders: items.map(() => null),
    stagedItems: 0,
    maxAgeDays: DEFAULT_MAX_AGE_DAYS,
  });
  await untilAtRest(batchStub(env, id));
  queue.mockRestore();
  const messages = items.map((input, index) => itemMessage(id, index, input, record.customerId));
  return { key, record, id, messages };
}

/** A batch to create straight in its object, of `size` distinct valid items. */
export const newBatch = (customerId: string, size: number): NewBatch => ({
  id: crypto.randomUUID(),
  customerId,
  environment: "test",
  keyId: "key_test",
  fields: ["email", "phone"],
  createdAt: new Date().toISOString(),
  statusUrl: "https://api.test/status",
  items: Array.from({ length: size }, (_, i) =>
    validItem({ customerId, environment: "test" }, person({ firstName: `P${i}` })),
  ),
  leaders: Array.from({ length: size }, () => null),
  stagedItems: 0,
  maxAgeDays: DEFAULT_MAX_AGE_DAYS,
});

/** How far the batch's fan-out got, read from its row. */
export const batchProgress = (stub: DurableObjectStub<ContactInfoBatch>) =>
  runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<{ next_enqueue_index: number; enqueue_failures: number }>(
        "SELECT next_enqueue_index, enqueue_failures FROM batch",
      )
      .one(),
  );

/**
 * Until a new batch's object is done with what its creation set off: every item
 * sent, the batch registered with its account, and the alarm armed for the wait
 * its plan names (by `create`'s first steps, or by the alarm after them), so a
 * test that moves the clock or runs the alarm starts from rest.
 */
export async function untilAtRest(stub: DurableObjectStub<ContactInfoBatch>): Promise<void> {
  await until(
    () =>
      runInDurableObject(stub, async (_, state) => {
        const row = readBatchRow(state.storage.sql);
        return { step: row && nextStep(row, Date.now(), readConfig(env)), alarm: await state.storage.getAlarm() };
      }),
    { what: "the new batch at rest", done: ({ step, alarm }) => step?.kind === "wait_until" && alarm === step.at },
  );
}

/** Until the batch's outbox is reported to its account: the usage, budget and ledger numbers are final. */
export const untilOutboxReported = (batchId: string) =>
  until(
    () =>
      runInDurableObject(
        batchStub(env, batchId),
        (_, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox").one().n,
      ),
    { what: `batch ${batchId}'s outbox reported`, done: (n) => n === 0 },
  );
