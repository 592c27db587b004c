// Privacy reaching the CRM syncs: a sync's records are made from a batch's items, so a person's erasure
// erases their values from every sync made from the batches that hold them, and a batch's deletion
// deletes its syncs. The account notes which syncs each batch has (noteSync, when one starts); a sync
// past the batch's retention deletes itself (crm-sync.ts).
import { accountStub } from "../account/stub";
import type { Tenant } from "../base/tenant";
import type { EraseDerived } from "../privacy/erasure";
import { syncStub } from "./stub";

/** The erasure of a person's values from the syncs made from their batches (privacy/erasure.ts calls it first). */
export const eraseFromSyncs =
  (env: Env, tenant: Tenant): EraseDerived =>
  async (batchIds, itemsOf, erasedAt) => {
    const syncs = await accountStub(env, tenant).crmSyncsOf([...batchIds]);
    for (const batchId of new Set(syncs.map((sync) => sync.batchId))) {
      const indexes = await itemsOf(batchId);
      if (indexes.length === 0) continue;
      const ofBatch = syncs.filter((sync) => sync.batchId === batchId);
      await Promise.all(ofBatch.map(({ syncId }) => syncStub(env, syncId).eraseItems(tenant, indexes, erasedAt)));
    }
  };

/** Deletes the syncs made from a deleted batch, then forgets them; repeated, it finds what is left. */
export async function deleteSyncsOf(env: Env, tenant: Tenant, batchId: string): Promise<void> {
  const account = accountStub(env, tenant);
  const syncs = await account.crmSyncsOf([batchId]);
  await Promise.all(syncs.map(({ syncId }) => syncStub(env, syncId).forget(tenant)));
  await account.crmForgetSyncs(batchId);
}
