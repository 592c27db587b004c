// The progress stream: GET …/person/contact-info/{id}/events, as server-sent events.
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { PROGRESS_INTERVAL_MS, sseText } from "../batch/event-plan";
import { eventsQuerySchema } from "../contact-info/events-query";
import { authProblems, internalError, keyRequired, rateLimited } from "./common";
import { batchParams } from "./contact-info-paths";
import { batchStatusExample } from "./examples";
import { exampleUsage, header, rateLimitHeaders, requestIdHeader } from "./headers";
import { problem } from "./problems";

const { items, webhook, nextCursor, ...counters } = batchStatusExample;
const done = { ...counters, status: "completed", completedItems: 2, completedAt: "2026-11-22T10:00:41.000Z" };

const streamExample = sseText([
  { id: 0, event: "progress", data: JSON.stringify({ ...counters, completedItems: 0, failedItems: 0, status: "pending" }) },
  { id: 1, event: "item", data: JSON.stringify(items[0]) },
  { id: 2, event: "item", data: JSON.stringify(items[1]) },
  { id: 2, event: "progress", data: JSON.stringify(counters) },
  { id: 3, event: "item", data: JSON.stringify({ ...items[0], index: 2, externalId: "crm-3" }) },
  { id: 3, event: "completed", data: JSON.stringify(done) },
]);

const documentedEventsQuery = z.object({
  items: eventsQuerySchema.shape.items.meta({
    description: "true: an `item` event for every finished item (the item as GET …/{id} shows it); default false: the counters only.",
    example: "true",
  }),
});

const lastEventIdHeader = z.object({
  "Last-Event-ID": z
    .string()
    .regex(/^[0-9]+$/)
    .optional()
    .meta({
      description:
        "The id of the last event you received: the stream resumes right after it, with no item event lost or repeated (EventSource sends it on reconnect). Without it, the stream starts from the batch's first event.",
      example: "2",
    }),
});

export function registerEvents(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/v2/{environment}/person/contact-info/{id}/events",
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
      "Opening a stream counts as one request of contact_info_status (Tier 4), however long it stays open.",
    ].join(" "),
    security: keyRequired,
    request: { params: batchParams, query: documentedEventsQuery, headers: lastEventIdHeader },
    responses: {
      200: {
        description: "The stream of events.",
        headers: {
          "Cache-Control": header("Never cached.", "no-cache", true),
          "x-request-id": requestIdHeader,
          ...rateLimitHeaders("contact_info_status", exampleUsage(100, 1, 60)),
        },
        content: {
          "text/event-stream": {
            schema: z
              .string()
              .meta({ description: "Server-sent events (WHATWG HTML §9.2): `event`, `id` and one `data` line of JSON each." }),
            example: streamExample,
          },
        },
      },
      400: problem(
        ["invalid_query", "invalid_last_event_id"],
        "A query parameter is invalid or unknown, or Last-Event-ID is not an id this stream sent",
      ),
      ...authProblems,
      404: problem(["not_found"], "No such batch for this customer and environment (another customer's batch looks the same)"),
      410: problem(["batch_expired", "batch_deleted"], "The batch's data was deleted: at the end of its retention period, or by its owner"),
      429: rateLimited("contact_info_status", 100),
      500: internalError,
    },
  });
}
