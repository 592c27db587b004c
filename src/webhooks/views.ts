import * as z from "zod";
import { limitParam } from "../http/paging";
import {
  ATTEMPT_ERRORS,
  DELIVERY_STATUSES,
  ENDPOINT_EVENTS,
  ENDPOINT_STATUSES,
  MAX_DELIVERY_PAGE,
} from "./endpoint-events";

// The shapes of endpoints and deliveries: what the routes validate and answer, what the hub returns over
// RPC, and what the OpenAPI document shows (one schema each, types inferred from them).

const eventList = z
  .array(z.enum(ENDPOINT_EVENTS, { error: `must be one of ${ENDPOINT_EVENTS.join(", ")}` }))
  .min(1, { error: "must name at least one event" })
  .max(ENDPOINT_EVENTS.length)
  .refine((events) => new Set(events).size === events.length, { error: "must not name an event twice" })
  .meta(OPENAPI_METADATA ? { description: "The events the endpoint is sent.", example: ["batch.completed"] } : {});
const endpointUrl = z
  .string({ error: "must be a string" })
  .max(2048)
  .meta(
    OPENAPI_METADATA
      ? {
          description:
            "Where deliveries are POSTed: https to a public host (in test also http to 127.0.0.1 / localhost), as a submit's webhookUrl.",
          example: "https://example.com/hooks/contact-info",
        }
      : {},
  );
const description = z.string({ error: "must be a string" }).max(500);

export const createEndpointSchema = z.strictObject({
  url: endpointUrl,
  events: eventList,
  description: description.optional(),
});
export const updateEndpointSchema = z
  .strictObject({
    url: endpointUrl.optional(),
    events: eventList.optional(),
    description: description.nullable().optional(),
    status: z.enum(ENDPOINT_STATUSES, { error: `must be one of ${ENDPOINT_STATUSES.join(", ")}` }).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { error: "must set url, events, description or status" });
export type EndpointPatch = z.infer<typeof updateEndpointSchema>;

export const endpointSchema = z
  .object({
    id: z.string().meta(OPENAPI_METADATA ? { example: "ep_6f1c2b0e9d8a4f7c8b3e2d1a0f9e8d7c" } : {}),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(ENDPOINT_EVENTS)),
    status: z.enum(ENDPOINT_STATUSES),
    disabledReason: z
      .string()
      .nullable()
      .meta(OPENAPI_METADATA ? { description: "Why the endpoint was disabled automatically; null otherwise." } : {}),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookEndpoint" });
export type EndpointView = z.infer<typeof endpointSchema>;

const secret = z.string().meta(
  OPENAPI_METADATA
    ? {
        description: "The signing secret (Standard Webhooks), shown only in this answer: keep it.",
        example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      }
    : {},
);
export const createdEndpointSchema = endpointSchema.extend({ secret }).meta({ id: "WebhookEndpointCreated" });
export const rotatedSecretSchema = z.object({ secret }).meta({ id: "WebhookSecretRotated" });

const attemptSchema = z.object({
  at: z.iso.datetime(),
  statusCode: z
    .int()
    .nullable()
    .meta(OPENAPI_METADATA ? { description: "null when there was no answer." } : {}),
  durationMs: z.int(),
  error: z
    .enum(ATTEMPT_ERRORS)
    .nullable()
    .meta(OPENAPI_METADATA ? { description: "Why there was no usable answer; null when there was one." } : {}),
});

export const deliverySchema = z
  .object({
    id: z
      .string()
      .meta(
        OPENAPI_METADATA ? { description: "The webhook-id the receiver saw.", example: "msg_2b0e9d8a4f7c8b3e" } : {},
      ),
    endpointId: z
      .string()
      .nullable()
      .meta(OPENAPI_METADATA ? { description: "The endpoint; null for a batch's own webhookUrl." } : {}),
    type: z.enum(ENDPOINT_EVENTS),
    status: z
      .enum(DELIVERY_STATUSES)
      .meta(OPENAPI_METADATA ? { description: "pending: will be tried (again); succeeded; failed: gave up." } : {}),
    createdAt: z.iso.datetime(),
    nextAttemptAt: z.iso.datetime().nullable(),
    attempts: z.array(attemptSchema),
  })
  .meta({ id: "WebhookLogDelivery" });
export type DeliveryView = z.infer<typeof deliverySchema>;

export const deliveryDetailSchema = deliverySchema
  .extend({
    payload: z.string().meta(OPENAPI_METADATA ? { description: "The body sent, byte for byte." } : {}),
  })
  .meta({ id: "WebhookLogDeliveryDetail" });
export type DeliveryDetail = z.infer<typeof deliveryDetailSchema>;

export const deliveryPageSchema = z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() });

export const deliveryQuerySchema = z.strictObject({
  endpointId: z.string().max(100).optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
  type: z.enum(ENDPOINT_EVENTS, { error: `must be one of ${ENDPOINT_EVENTS.join(", ")}` }).optional(),
  since: z.iso.datetime({ error: "must be an ISO 8601 date-time in UTC" }).optional(),
  limit: limitParam(MAX_DELIVERY_PAGE),
  cursor: z.string().max(100).optional(),
});

export const recoverSchema = z.strictObject({
  since: z.iso.datetime({ error: "must be an ISO 8601 date-time in UTC" }),
});
export const recoveredSchema = z.object({
  count: z.int().meta(OPENAPI_METADATA ? { description: "Deliveries re-sent." } : {}),
});
