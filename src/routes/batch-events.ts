import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { AppEnv } from "../app-env";
import { batchStub } from "../batch/stub";
import { parseEventsRequest } from "../contact-info/events-query";
import { badRequest, batchDeleted, batchExpired, notFound } from "../http/errors";
import { relay } from "../http/sse-relay";
import { log } from "../log";
import { rateLimit } from "../middleware/rate-limit";
import { BATCH_ID } from "./batch-id";

/** GET …/person/contact-info/{id}/events: one Tier 4 request however long the stream stays open. */
export const batchEvents = new Hono<AppEnv>().get("/:id/events", rateLimit("contact_info_status"), async (c) => {
  const id = c.req.param("id");
  if (!BATCH_ID.test(id)) throw notFound("No batch with this id exists.");
  const request = parseEventsRequest(c.req.query(), c.req.header("last-event-id"));
  const apiKey = c.get("apiKey");
  const read = await batchStub(c.env, id.toLowerCase()).events(
    { customerId: apiKey.customerId, environment: c.get("environment") },
    request,
  );
  // Another customer's or environment's batch answers exactly like a missing one.
  if (read.kind === "none") throw notFound("No batch with this id exists.");
  if (read.kind === "expired") throw batchExpired(read.expiredAt);
  if (read.kind === "deleted") throw batchDeleted(read.deletedAt);
  if (read.kind === "unknown_event_id") {
    throw badRequest("invalid_last_event_id", `This batch's stream sent no event ${request.after}; its last event is ${read.lastSeq}.`);
  }
  const opened = Date.now();
  return streamSSE(c, async (sse) => {
    await relay(read.stream, sse);
    log("event_stream_closed", { batchId: id.toLowerCase(), requestId: c.get("requestId"), durationMs: Date.now() - opened });
  });
});
