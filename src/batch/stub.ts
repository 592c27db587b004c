/** The Durable Object that holds batch `batchId`: the only way code reaches a batch. */
export function batchStub(env: Env, batchId: string) {
  return env.BATCHES.get(env.BATCHES.idFromName(batchId));
}
