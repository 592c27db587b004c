// The progress stream: GET /v2/{environment}/person/contact-info/{id}/events, as server-sent events.
import { streamSSE } from "hono/streaming";
import * as z from "zod";
import { log } from "../base/log";
import { notInTheWorker, once } from "../base/once";
import { eventsQuerySchema } from "../contact-info/events-query";
import { relay } from "../http/sse-relay";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, internalError, keyRequired, streamRefused } from "../openapi/common";
import { batchStatusExample } from "../openapi/examples";
import { header, requestIdHeader } from "../openapi/headers";
import { problem } from "../openapi/problems";
import {
  LEASE_EXPIRES_MS,
  LEASE_RENEW_MS,
  MAX_STREAMS_PER_BATCH,
  MAX_STREAMS_PER_CUSTOMER,
} from "../rate-limit/stream-leases";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { ITEM_EVENTS_PER_STEP, PROGRESS_INTERVAL_MS, REPLAY_STEP_PAUSE_MS, sseText } from "./events/event-plan";
import { openBatchEvents } from "./read-operations";
import { batchParams } from "./read-routes";

function streamExample() {
  const { items, webhook, nextCursor, ...counters } = batchStatusExample;
  const done = { ...counters, status: "completed", completedItems: 2, completedAt: "2026-11-22T10:00:41.000Z" };
  return sseText([
    {
      id: 0,
      event: "progress",
      data: JSON.stringify({ ...counters, completedItems: 0, failedItems: 0, status: "pending" }),
    },
    { id: 1, event: "item", data: JSON.stringify(items[0]) },
    { id: 2, event: "item", data: JSON.stringify(items[1]) },
    { id: 2, event: "progress", data: JSON.stringify(counters) },
    { id: 3, event: "item", data: JSON.stringify({ ...items[0], index: 2, externalId: "crm-3" }) },
    { id: 3, event: "completed", data: JSON.stringify(done) },
  ]);
}

const documentedEventsQuery = OPENAPI_METADATA
  ? once(() =>
      z.object({
        items: eventsQuerySchema.shape.items.meta({
          description:
            "true: an `item` event for every finished item (the item as GET …/{id} shows it); default false: the counters only.",
          example: "true",
        }),
      }),
    )
  : notInTheWorker;

const lastEventIdHeader = OPENAPI_METADATA
  ? once(() =>
      z.object({
        "Last-Event-ID": z
          .string()
          .regex(/^[0-9]+$/)
          .optional()
          .meta({
            description:
              "The id of the last event you received: the stream resumes right after it, with no item event lost or repeated (EventSource sends it on reconnect). Without it, the stream starts from the batch's first event.",
            example: "2",
          }),
      }),
    )
  : notInTheWorker;

/** One Tier 4 request to open, and one unit of that budget held while open; capped per customer and per batch. */
const batchEvents = declareRoute({
  route: {
    method: "get",
    path: "/person/contact-info/{id}/events",
    query: eventsQuerySchema,
    middleware: [rateLimit(openBatchEvents)],
  },
  docs: OPENAPI_METADATA && {
    operationId: "streamContactInfoBatchEvents",
    tags: ["Contact info"],
    summary: "Follow a batch as it runs: a stream of server-sent events",
    description: [
      "A `text/event-stream` instead of polling. Events, each with an `id` (the batch's event number, kept with the batch):",
      "`progress`: the counters (`id`, `status`, `totalItems`, `completedItems`, `failedItems`, `createdAt`, `completedAt`, `creditsCharged`, `maxCredits`, as GET …/{id}), once on connecting and whenever items finish, at most every",
      `${PROGRESS_INTERVAL_MS} ms (those in between are coalesced);`,
      "`item` (with `items=true`): one per finished item, the item as GET …/{id} shows it;",
      "`completed`: the counters once every item has finished; then the stream ends.",
      "A stream without Last-Event-ID starts from the batch's first event, so a late subscriber still gets every item event; on a completed batch it replays what follows Last-Event-ID and ends with `completed`.",
      "Comment lines (`: heartbeat`) keep an idle stream open. The stream may also end early (a restart on our side): reconnect with Last-Event-ID.",
      "Opening a stream counts as one request of contact_info_status (Tier 4), and an open stream holds one more unit of that budget until it ends.",
      `At most ${MAX_STREAMS_PER_CUSTOMER} streams are open at once per customer and environment (all its keys), and ${MAX_STREAMS_PER_BATCH} per batch: one more is answered 429 \`too_many_streams\` with Retry-After.`,
      `A stream ends within about 2 s of its key's revocation. A stream that ends frees its place at once; one whose client left, within ${LEASE_EXPIRES_MS / 1000} s.`,
      `With items=true a long replay is paced: at most ${ITEM_EVENTS_PER_STEP} item events every ${REPLAY_STEP_PAUSE_MS} ms.`,
    ].join(" "),
    security: keyRequired,
    request: { params: batchParams(), query: documentedEventsQuery(), headers: lastEventIdHeader() },
    responses: {
      200: {
        description: "The stream of events.",
        headers: {
          "Cache-Control": header("Never cached.", "no-cache", true),
          "x-request-id": requestIdHeader(),
        },
        content: {
          "text/event-stream": {
            schema: z.string().meta({
              description: "Server-sent events (WHATWG HTML §9.2): `event`, `id` and one `data` line of JSON each.",
            }),
            example: streamExample(),
          },
        },
      },
      400: problem(
        ["invalid_query", "invalid_last_event_id"],
        "A query parameter is invalid or unknown, or Last-Event-ID is not an id this stream sent",
      ),
      ...authProblems(),
      404: problem(
        ["not_found"],
        "No such batch for this customer and environment (another customer's batch looks the same)",
      ),
      410: problem(
        ["batch_expired", "batch_deleted"],
        "The batch's data was deleted: at the end of its retention period, or by its owner",
      ),
      429: streamRefused(100),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const id = c.req.param("id").toLowerCase();
    const { stream, held } = await openBatchEvents(callerOf(c), id, c.req.query(), c.req.header("last-event-id"));
    const opened = Date.now();
    return streamSSE(c, async (sse) => {
      let refusal = "refused";
      const renew = async () => {
        const renewal = await held.renew();
        if (renewal !== "renewed") refusal = renewal;
        return renewal === "renewed";
      };
      let end: string;
      try {
        end = await relay(stream, sse, { everyMs: LEASE_RENEW_MS, stalledMs: LEASE_EXPIRES_MS, renew });
      } finally {
        // Released before the response ends, so a client that sees the end finds its place free. A client
        // that leaves cancels this request, renewals included: its place frees when the lease expires.
        await held.release();
      }
      const endedBy = end === "refused" ? refusal : end;
      log("event_stream_closed", {
        batchId: id,
        requestId: c.get("requestId"),
        durationMs: Date.now() - opened,
        endedBy,
      });
    });
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const batchEventRoutes: readonly DeclaredRoute[] = [batchEvents];
