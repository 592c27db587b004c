// What needs no key: the index, the health check, this document, the reference
// page; and the webhook we send (its receiver authenticates us by signature).
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { itemCompletedEventSchema } from "../contact-info/item-completed-event";
import { batchCompletedEventSchema } from "../contact-info/webhook-event";
import { MAX_ITEMS_PER_DELIVERY } from "../contact-info/webhook-events";
import { API_INDEX } from "../routes/api-index";
import { noKey } from "./common";

export function registerMeta(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/",
    operationId: "index",
    tags: ["Meta"],
    summary: "Where to start",
    description: "Points to the API reference (/docs), this document (/openapi.json) and the health check. Needs no key.",
    security: noKey,
    responses: {
      200: {
        description: "Links.",
        content: {
          "application/json": {
            schema: z.object({ name: z.string(), docs: z.string(), openapi: z.string(), health: z.string() }).meta({ example: API_INDEX }),
          },
        },
      },
    },
  });
  r.registerPath({
    method: "get",
    path: "/healthz",
    operationId: "health",
    tags: ["Meta"],
    summary: "Liveness, for load balancers",
    description: "Needs no key and touches no storage.",
    security: noKey,
    responses: { 200: { description: "Up.", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } } },
  });
  r.registerPath({
    method: "get",
    path: "/openapi.json",
    operationId: "openApiDocument",
    tags: ["Meta"],
    summary: "This document",
    description: "The OpenAPI 3.1 description of this API, generated from the schemas that validate requests. Needs no key.",
    security: noKey,
    responses: { 200: { description: "OpenAPI 3.1.", content: { "application/json": { schema: z.object({}).catchall(z.unknown()) } } } },
  });
  r.registerPath({
    method: "get",
    path: "/docs",
    operationId: "apiReference",
    tags: ["Meta"],
    summary: "Interactive API reference",
    description: "A browsable reference built from /openapi.json. Needs no key.",
    security: noKey,
    responses: { 200: { description: "An HTML page.", content: { "text/html": { schema: z.string() } } } },
  });

  r.registerWebhook({
    method: "post",
    path: "batch.completed",
    operationId: "batchCompleted",
    tags: ["Webhooks"],
    summary: "A batch you submitted with webhookUrl has completed",
    description:
      "Signed per Standard Webhooks with your key's whsec_ secret: webhook-id (stable across retries), webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>). Answer 2xx; other answers and timeouts are retried with backoff. Sent without an API key: verify the signature.",
    security: noKey,
    request: { body: { content: { "application/json": { schema: batchCompletedEventSchema } } } },
    responses: { 200: { description: "Received." } },
  });

  r.registerWebhook({
    method: "post",
    path: "item.completed",
    operationId: "itemCompleted",
    tags: ["Webhooks"],
    summary: "Items of a batch you submitted with webhookEvents including item.completed have finished",
    description: `One delivery for the items one record of results finished (the items of a few queue messages, with their duplicates; the items that failed validation, at submission), at most ${MAX_ITEMS_PER_DELIVERY} items to a delivery, so a 10,000-item batch makes at least 100. Every item of the batch is in exactly one delivery, as the status route shows it once finished. Each delivery has its own webhook-id, the same on every retry (deduplicate on it); deliveries may arrive in any order and before or after batch.completed. Signed, retried, re-driven and stopped by a DELETE like batch.completed.`,
    security: noKey,
    request: { body: { content: { "application/json": { schema: itemCompletedEventSchema } } } },
    responses: { 200: { description: "Received." } },
  });
}
