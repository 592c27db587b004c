import { jurisdictionOfBatch } from "../base/batch-id";
import { objectNamed } from "../base/placement";

/** The Durable Object that holds batch `batchId`, in the jurisdiction its id names: the only way code reaches a batch. */
export function batchStub(env: Env, batchId: string) {
  return objectNamed(env.BATCHES, batchId, jurisdictionOfBatch(batchId));
}
