// A customer's webhook endpoints: POST/GET /v2/{environment}/webhook-endpoints, GET/PATCH/DELETE …/{id},
// POST …/{id}/rotate-secret, …/{id}/test and …/{id}/recover (the operations: src/webhooks/operations.ts).
import * as z from "zod";
import { callerOf } from "../middleware/caller";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, jsonBodyProblems, keyRequired } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  readEndpoint,
  recoverEndpoint,
  rotateEndpointSecret,
  testEndpoint,
  updateEndpoint,
} from "../webhooks/operations";
import {
  createdEndpointSchema,
  createEndpointSchema,
  deliverySchema,
  endpointSchema,
  recoveredSchema,
  recoverSchema,
  rotatedSecretSchema,
  updateEndpointSchema,
} from "../webhooks/views";
import { type DeclaredRoute, declareRoute } from "./declare";

const endpointParams = () =>
  environmentParams().extend({
    id: z.string().meta({ description: "The endpoint's id (POST …/webhook-endpoints answered it)." }),
  });
const noSuchEndpoint = () => problem(["not_found"], "No such endpoint for this customer and environment");
const invalidBody = () =>
  problem(
    ["invalid_request", "malformed_json", "incomplete_body"],
    "The body does not match the schema, or the URL is refused",
  );
const json = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  headers: requestIdHeaders(),
  content: { "application/json": { schema } },
});
const body = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});
const TAGS = ["Webhooks"];

const create = declareRoute({
  route: { method: "post", path: "/webhook-endpoints", middleware: [rateLimit(createEndpoint), jsonBody()] },
  docs: OPENAPI_METADATA && {
    operationId: "createWebhookEndpoint",
    tags: TAGS,
    summary: "Add a webhook endpoint: every batch of this environment sends it the events it subscribes to",
    description:
      "The answer carries the endpoint's signing secret (whsec_…), shown only here. Deliveries are signed per Standard Webhooks, retried on a schedule of about a day, and kept in the delivery log for 30 days.",
    security: keyRequired,
    request: { params: environmentParams(), body: body(createEndpointSchema) },
    responses: {
      201: json("Created: keep the secret.", createdEndpointSchema),
      400: invalidBody(),
      ...authProblems(),
      409: problem(["too_many_webhook_endpoints"], "The environment has as many endpoints as it may"),
      ...jsonBodyProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await createEndpoint(callerOf(c), c.get("jsonBody")), 201),
});

const list = declareRoute({
  route: {
    method: "get",
    path: "/webhook-endpoints",
    middleware: [rateLimit(listEndpoints, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "listWebhookEndpoints",
    tags: TAGS,
    summary: "List the webhook endpoints (without their secrets)",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: json("The endpoints, oldest first.", z.object({ endpoints: z.array(endpointSchema) })),
      ...authProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await listEndpoints(callerOf(c)), 200),
});

const read = declareRoute({
  route: {
    method: "get",
    path: "/webhook-endpoints/{id}",
    middleware: [rateLimit(readEndpoint, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getWebhookEndpoint",
    tags: TAGS,
    summary: "Read a webhook endpoint",
    security: keyRequired,
    request: { params: endpointParams() },
    responses: {
      200: json("The endpoint.", endpointSchema),
      ...authProblems(),
      404: noSuchEndpoint(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await readEndpoint(callerOf(c), c.req.param("id")), 200),
});

const update = declareRoute({
  route: {
    method: "patch",
    path: "/webhook-endpoints/{id}",
    middleware: [rateLimit(updateEndpoint), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "updateWebhookEndpoint",
    tags: TAGS,
    summary: "Change an endpoint's url, events, description or status",
    description:
      "status disabled stops its deliveries (those pending end failed, for a recover later); enabled clears the reason it was disabled automatically.",
    security: keyRequired,
    request: { params: endpointParams(), body: body(updateEndpointSchema) },
    responses: {
      200: json("The endpoint as changed.", endpointSchema),
      400: invalidBody(),
      ...authProblems(),
      404: noSuchEndpoint(),
      ...jsonBodyProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await updateEndpoint(callerOf(c), c.req.param("id"), c.get("jsonBody")), 200),
});

const remove = declareRoute({
  route: { method: "delete", path: "/webhook-endpoints/{id}", middleware: [rateLimit(deleteEndpoint)] },
  docs: OPENAPI_METADATA && {
    operationId: "deleteWebhookEndpoint",
    tags: TAGS,
    summary: "Delete an endpoint and its deliveries: nothing more is sent to it",
    security: keyRequired,
    request: { params: endpointParams() },
    responses: {
      204: { description: "Deleted.", headers: requestIdHeaders() },
      ...authProblems(),
      404: noSuchEndpoint(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    await deleteEndpoint(callerOf(c), c.req.param("id"));
    return c.body(null, 204);
  },
});

const rotate = declareRoute({
  route: {
    method: "post",
    path: "/webhook-endpoints/{id}/rotate-secret",
    middleware: [rateLimit(rotateEndpointSecret)],
  },
  docs: OPENAPI_METADATA && {
    operationId: "rotateWebhookEndpointSecret",
    tags: TAGS,
    summary: "A new signing secret; for 24 hours each delivery carries both signatures",
    description:
      "webhook-signature is then `v1,<new> v1,<old>`: a receiver holding either secret verifies every delivery while it changes over.",
    security: keyRequired,
    request: { params: endpointParams() },
    responses: {
      200: json("The new secret, shown only here.", rotatedSecretSchema),
      ...authProblems(),
      404: noSuchEndpoint(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await rotateEndpointSecret(callerOf(c), c.req.param("id")), 200),
});

const test = declareRoute({
  route: { method: "post", path: "/webhook-endpoints/{id}/test", middleware: [rateLimit(testEndpoint)] },
  docs: OPENAPI_METADATA && {
    operationId: "testWebhookEndpoint",
    tags: TAGS,
    summary: "Send a webhook.test event now",
    description: "Sent whatever the endpoint subscribed to, retried and logged as any delivery.",
    security: keyRequired,
    request: { params: endpointParams() },
    responses: {
      202: json("Sending: the delivery, as the log shows it.", deliverySchema),
      ...authProblems(),
      404: noSuchEndpoint(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await testEndpoint(callerOf(c), c.req.param("id")), 202),
});

const recover = declareRoute({
  route: {
    method: "post",
    path: "/webhook-endpoints/{id}/recover",
    middleware: [rateLimit(recoverEndpoint), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "recoverWebhookEndpoint",
    tags: TAGS,
    summary: "Re-send every delivery to this endpoint since a time that has not succeeded",
    description:
      "Each keeps its webhook-id (receivers de-duplicate on it) and is signed afresh with a new timestamp, on a fresh retry schedule; at most 1000 per call, the oldest first (call again for more).",
    security: keyRequired,
    request: { params: endpointParams(), body: body(recoverSchema) },
    responses: {
      202: json("Re-sending.", recoveredSchema),
      400: invalidBody(),
      ...authProblems(),
      404: noSuchEndpoint(),
      ...jsonBodyProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await recoverEndpoint(callerOf(c), c.req.param("id"), c.get("jsonBody")), 202),
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const webhookEndpointRoutes: readonly DeclaredRoute[] = [
  create,
  list,
  read,
  update,
  remove,
  rotate,
  test,
  recover,
];
