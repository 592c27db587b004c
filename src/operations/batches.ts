// Reading and deleting batches: the operations behind GET and DELETE …/person/contact-info/{id}, GET
// …/person/contact-info and their MCP tools.
import { batchListPaging } from "../account/list-query";
import { accountStub } from "../account/stub";
import { isBatchId } from "../base/batch-id";
import { tenantOf } from "../base/tenant";
import { batchStub } from "../batch/stub";
import type { BatchPageData } from "../contact-info/batch-views";
import { parseStatusQuery } from "../contact-info/status-query";
import { deleteSyncsOf } from "../crm/sync-erasure";
import { batchDeleted, batchExpired, notFound } from "../http/errors";
import type { Caller } from "./caller";

// Another customer's or environment's batch answers exactly like a missing one.
export const noSuchBatch = () => notFound("No batch with this id exists.");

/** One page of a batch the caller owns; `query` as a URL's query (strings), parsed by the one status-query schema. */
export async function readBatchPage(
  { env, apiKey, environment }: Caller,
  batchId: string,
  query: Record<string, string>,
): Promise<BatchPageData> {
  const id = batchId.toLowerCase();
  if (!isBatchId(id)) throw noSuchBatch();
  const page = parseStatusQuery(query);
  const read = await batchStub(env, id).status({ customerId: apiKey.customerId, environment }, page);
  if (read.kind === "none") throw noSuchBatch();
  if (read.kind === "expired") throw batchExpired(read.expiredAt);
  if (read.kind === "deleted") throw batchDeleted(read.deletedAt);
  return read.page;
}

/** One page of the caller's batches, newest first; `query` as a URL's query. */
export function listBatchPage({ env, apiKey }: Caller, query: Record<string, string>) {
  const page = batchListPaging.parse(query);
  return accountStub(env, tenantOf(apiKey)).list(page);
}

/** Cancels and erases a batch the caller owns, and deletes the CRM syncs made from it; again, it changes nothing. */
export async function deleteBatch({ env, apiKey, environment }: Caller, batchId: string): Promise<void> {
  const id = batchId.toLowerCase();
  if (!isBatchId(id)) throw noSuchBatch();
  const deleted = await batchStub(env, id).erase({ customerId: apiKey.customerId, environment });
  if (!deleted) throw noSuchBatch();
  await deleteSyncsOf(env, tenantOf(apiKey), id);
}
