// Reading and deleting batches: the operations behind GET and DELETE …/person/contact-info/{id}, GET
// …/person/contact-info and their MCP tools.
import { batchListPaging } from "../account/list-query";
import { accountStub } from "../account/stub";
import { isBatchId } from "../base/batch-id";
import { readConfig } from "../base/config";
import { tenantOf } from "../base/tenant";
import type { BatchPageData } from "../contact-info/batch-views";
import { parseEventsRequest } from "../contact-info/events-query";
import { parseStatusQuery } from "../contact-info/status-query";
import { deleteSyncsOf } from "../crm/sync-erasure";
import { badRequest, batchDeleted, batchExpired, notFound } from "../http/errors";
import type { Caller } from "../operations/caller";
import { effectiveSettings } from "../rate-limit/endpoint-types";
import { operation } from "../rate-limit/operation";
import { type HeldStream, holdStream } from "../rate-limit/stream-lease";
import { batchStub } from "./stub";

// Another customer's or environment's batch answers exactly like a missing one.
export const noSuchBatch = () => notFound("No batch with this id exists.");

/** One page of a batch the caller owns; `query` as a URL's query (strings), parsed by the one status-query schema. */
export const readBatchPage = operation(
  "contact_info_status",
  async function readBatchPage(
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
  },
);

/** One page of the caller's batches, newest first; `query` as a URL's query. */
export const listBatchPage = operation(
  "contact_info_status",
  function listBatchPage({ env, apiKey }: Caller, query: Record<string, string>) {
    const page = batchListPaging.parse(query);
    return accountStub(env, tenantOf(apiKey)).list(page);
  },
);

/** Cancels and erases a batch the caller owns, and deletes the CRM syncs made from it; again, it changes nothing. */
export const deleteBatch = operation(
  "contact_info_request",
  async function deleteBatch({ env, apiKey, environment }: Caller, batchId: string): Promise<void> {
    const id = batchId.toLowerCase();
    if (!isBatchId(id)) throw noSuchBatch();
    const deleted = await batchStub(env, id).erase({ customerId: apiKey.customerId, environment });
    if (!deleted) throw noSuchBatch();
    await deleteSyncsOf(env, tenantOf(apiKey), id);
  },
);

/**
 * Opens a batch's event stream (GET …/{id}/events): its place held from the customer's limiter first (a
 * refused stream registers nothing with the batch), then the batch asked for its events after Last-Event-ID.
 * Answers the stream and the place, which the door renews while it relays and releases at the end; on a
 * problem the place is released before it is thrown.
 */
export const openBatchEvents = operation(
  "contact_info_status",
  async function openBatchEvents(
    { env, apiKey, environment }: Caller,
    batchId: string,
    query: Record<string, string>,
    lastEventId: string | undefined,
  ): Promise<{ stream: ReadableStream<Uint8Array>; held: HeldStream }> {
    const id = batchId.toLowerCase();
    if (!isBatchId(id)) throw noSuchBatch();
    const request = parseEventsRequest(query, lastEventId);
    const limits = effectiveSettings(readConfig(env), apiKey.rateLimits);
    const held = await holdStream(env, tenantOf(apiKey), apiKey.keyId, id, limits);
    try {
      const read = await batchStub(env, id).events({ customerId: apiKey.customerId, environment }, request);
      if (read.kind === "none") throw noSuchBatch();
      if (read.kind === "expired") throw batchExpired(read.expiredAt);
      if (read.kind === "deleted") throw batchDeleted(read.deletedAt);
      if (read.kind === "unknown_event_id") {
        throw badRequest(
          "invalid_last_event_id",
          `This batch's stream sent no event ${request.after}; its last event is ${read.lastSeq}.`,
        );
      }
      return { stream: read.stream, held };
    } catch (error) {
      await held.release();
      throw error;
    }
  },
);
