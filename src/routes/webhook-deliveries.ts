// The delivery log: GET /v2/{environment}/webhook-deliveries, GET …/{id}, POST …/{id}/redeliver.
import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { listDeliveries, readDelivery, redeliver } from "../webhooks/operations";
import { deliveryDetailSchema, deliveryPageSchema, deliveryQuerySchema } from "../webhooks/views";
import { type DeclaredRoute, declareRoute } from "./declare";

const deliveryParams = OPENAPI_METADATA
  ? once(() =>
      environmentParams().extend({
        id: z.string().meta({ description: "The delivery's id: the webhook-id the receiver saw." }),
      }),
    )
  : notInTheWorker;
const noSuchDelivery = OPENAPI_METADATA
  ? once(() => problem(["not_found"], "No such delivery for this customer and environment"))
  : notInTheWorker;
const TAGS = ["Webhooks"];

const list = declareRoute({
  route: {
    method: "get",
    path: "/webhook-deliveries",
    query: deliveryQuerySchema,
    middleware: [rateLimit(listDeliveries, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "listWebhookDeliveries",
    tags: TAGS,
    summary: "The delivery log, newest first: each delivery with its attempts",
    description:
      "Kept 30 days. Filter by endpointId, status, type and since (createdAt at or after); page with limit and cursor.",
    security: keyRequired,
    request: { params: environmentParams(), query: deliveryQuerySchema },
    responses: {
      200: {
        description: "A page of deliveries.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: deliveryPageSchema } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await listDeliveries(callerOf(c), c.req.query()), 200),
});

const read = declareRoute({
  route: {
    method: "get",
    path: "/webhook-deliveries/{id}",
    middleware: [rateLimit(readDelivery, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getWebhookDelivery",
    tags: TAGS,
    summary: "One delivery, with its attempts and the exact payload sent",
    security: keyRequired,
    request: { params: deliveryParams() },
    responses: {
      200: {
        description: "The delivery.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: deliveryDetailSchema } },
      },
      ...authProblems(),
      404: noSuchDelivery(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await readDelivery(callerOf(c), c.req.param("id")), 200),
});

const resend = declareRoute({
  route: {
    method: "post",
    path: "/webhook-deliveries/{id}/redeliver",
    middleware: [rateLimit(redeliver)],
  },
  docs: OPENAPI_METADATA && {
    operationId: "redeliverWebhookDelivery",
    tags: TAGS,
    summary: "Send a delivery again now, whatever its status",
    description:
      "It keeps its webhook-id (receivers de-duplicate on it), is signed afresh with a new timestamp, and gets a fresh retry schedule.",
    security: keyRequired,
    request: { params: deliveryParams() },
    responses: {
      202: { description: "Sending.", headers: requestIdHeaders() },
      ...authProblems(),
      404: noSuchDelivery(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    await redeliver(callerOf(c), c.req.param("id"));
    return c.body(null, 202);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const webhookDeliveryRoutes: readonly DeclaredRoute[] = [list, read, resend];
