import { jurisdictionOfBatch } from "../base/batch-id";
import { objectNamed } from "../base/placement";

/** The Durable Object of sync `syncId` (an id of the batch ids' form: its jurisdiction is in it). */
export function syncStub(env: Env, syncId: string) {
  return objectNamed(env.CRM_SYNCS, syncId, jurisdictionOfBatch(syncId));
}
