// CRM syncs: the operations behind …/crm-syncs (start, read, apply, undo).
import { accountStub } from "../account/stub";
import { isBatchId, newBatchId } from "../base/batch-id";
import { tenantOf } from "../base/tenant";
import { readBatchPage } from "../batch/read-operations";
import {
  batchNotCompleted,
  crmAccountChanged,
  crmNotConnected,
  crmSyncNotAppliable,
  crmSyncNotUndoable,
  notFound,
} from "../http/errors";
import { decodeItemCursor } from "../http/item-cursor";
import { invalidCursor } from "../http/paging";
import { parseQuery } from "../http/query";
import type { Caller } from "../operations/caller";
import { operation } from "../rate-limit/operation";
import { connectionOf } from "./connections";
import { DEFAULT_SYNC_PAGE, invalid, syncQuerySchema, syncRequestSchema } from "./schemas";
import { syncStub } from "./stub";

/** Starts a sync of a completed batch into the CRM: a dry run unless `dryRun` is false. */
export const startCrmSync = operation(
  "contact_info_request",
  async function startCrmSync(caller: Caller, body: unknown) {
    const parsed = syncRequestSchema().safeParse(body);
    if (!parsed.success) invalid("The request body does not match the CRM sync schema.", parsed.error.issues);
    const request = parsed.data;
    const batch = await readBatchPage(caller, request.batchId, { limit: "1" });
    if (batch.status !== "completed") throw batchNotCompleted();
    const tenant = tenantOf(caller.apiKey);
    const { accountId } = await connectionOf(caller.env, tenant, request.provider);
    const id = newBatchId(tenant.jurisdiction);
    const createdAt = new Date().toISOString();
    // Noted before it reads an item, so an erasure or the batch's deletion reaches it from the start.
    await accountStub(caller.env, tenant).crmNoteSync(request.batchId, id);
    const sync = await syncStub(caller.env, id).start({
      ...request,
      id,
      tenant,
      createdAt,
      crmAccount: accountId,
      batchCompletedAt: batch.completedAt,
    });
    return { sync, location: `/v2/${caller.environment}/crm-syncs/${id}` };
  },
);

const noSuchSync = () => notFound("No CRM sync with this id exists.");

/** One page of a sync's records, in item order. */
export const readCrmSync = operation(
  "contact_info_status",
  async function readCrmSync({ env, apiKey }: Caller, syncId: string, query: Record<string, string>) {
    const id = syncId.toLowerCase();
    const { limit = DEFAULT_SYNC_PAGE, cursor } = parseQuery(syncQuerySchema(), query);
    const fromIndex = cursor === undefined ? 0 : decodeItemCursor(cursor);
    if (fromIndex === null) throw invalidCursor();
    const page = isBatchId(id) ? await syncStub(env, id).page(tenantOf(apiKey), fromIndex, limit) : null;
    if (!page) throw noSuchSync();
    return page;
  },
);

/** Writes a completed dry run as previewed. */
export const applyCrmSync = operation(
  "contact_info_request",
  async function applyCrmSync({ env, apiKey }: Caller, syncId: string) {
    const id = syncId.toLowerCase();
    const answer = isBatchId(id) ? await syncStub(env, id).apply(tenantOf(apiKey)) : ({ kind: "none" } as const);
    if (answer.kind === "none") throw noSuchSync();
    if (answer.kind === "conflict") throw crmSyncNotAppliable(answer.why);
    if (answer.kind === "not_connected") throw crmNotConnected(answer.provider);
    if (answer.kind === "account_changed") throw crmAccountChanged(answer.provider);
    if (answer.kind !== "applying") throw new Error("an apply answered an unknown kind");
    return answer.sync;
  },
);

/**
 * Undoes an applied sync: a new sync (its id answered) restores what it wrote, in the same CRM account. The
 * undo is noted with the batch's syncs, so an erasure and the batch's deletion reach it as they reach its sync.
 */
export const undoCrmSync = operation(
  "contact_info_request",
  async function undoCrmSync({ env, apiKey }: Caller, syncId: string) {
    const id = syncId.toLowerCase();
    const tenant = tenantOf(apiKey);
    const undoId = newBatchId(tenant.jurisdiction);
    const original = syncStub(env, id);
    let claim = isBatchId(id) ? await original.claimUndo(tenant, undoId) : ({ kind: "none" } as const);
    // An undo that failed (the token refused, the CRM down) may be tried again: what it restored is found so.
    const earlier = claim.kind === "conflict" ? claim.undoneBy : undefined;
    if (earlier && (await syncStub(env, earlier).page(tenant, 0, 1))?.status === "failed") {
      await original.releaseUndo(tenant, earlier);
      claim = await original.claimUndo(tenant, undoId);
    }
    if (claim.kind === "none") throw noSuchSync();
    if (claim.kind === "conflict") throw crmSyncNotUndoable(claim.why);
    if (claim.kind === "not_connected") throw crmNotConnected(claim.provider);
    if (claim.kind === "account_changed") throw crmAccountChanged(claim.provider);
    if (claim.kind !== "undo") throw new Error("an undo answered an unknown kind");
    try {
      await accountStub(env, tenant).crmNoteSync(claim.start.batchId, undoId);
      return await syncStub(env, undoId).start(claim.start);
    } catch (error) {
      // Not started: the sync may be undone again.
      await original.releaseUndo(tenant, undoId);
      throw error;
    }
  },
);
