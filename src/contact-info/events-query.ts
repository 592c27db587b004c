import * as z from "zod";
import { badRequest } from "../http/errors";
import { parseQuery } from "../http/query";

/** What a client asks of a batch's event stream. */
export interface EventsRequest {
  withItems: boolean;
  /** The client's Last-Event-ID: events after it; null from the batch's first. */
  after: number | null;
}

export const eventsQuerySchema = z.strictObject({
  items: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
});

// An event id is the batch's event number: a non-negative integer, as the stream sent it.
const EVENT_ID = /^(0|[1-9][0-9]{0,14})$/;

const LAST_EVENT_ID_RULE = "Last-Event-ID must be the id of an event this batch's stream sent: a non-negative integer.";

/** What an events request asks for, or a 400: `invalid_query` for the query, `invalid_last_event_id` for the header. */
export function parseEventsRequest(query: Record<string, string>, lastEventId: string | undefined): EventsRequest {
  const { items } = parseQuery(eventsQuerySchema, query);
  if (lastEventId !== undefined && !EVENT_ID.test(lastEventId.trim()))
    throw badRequest("invalid_last_event_id", LAST_EVENT_ID_RULE);
  return { withItems: items === "true", after: lastEventId === undefined ? null : Number(lastEventId.trim()) };
}
