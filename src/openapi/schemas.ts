// Response shapes of the API as zod schemas, for the OpenAPI document. The
// compile-time checks at the end tie each one to the type the Worker returns,
// so the document cannot drift from the code.
import * as z from "zod";
import { problemInit } from "../http/errors";
import { problemBody } from "../http/problem";
import { ENDPOINT_TYPES, type EndpointLimit, TIERS } from "../rate-limit/endpoint-types";

export const EXAMPLE_REQUEST_ID = "8f0c2e1a9b7d4c3e";

export const receiptSchema = z
  .object({
    batchId: z.uuid(),
    itemCount: z.number().int(),
    message: z.string(),
  })
  .meta({
    id: "BatchReceipt",
    example: {
      batchId: "3e1cab3a-0527-4fea-987c-d486f470829c",
      itemCount: 2,
      message: "Accepted 2 item(s); 2 queued for processing. Poll the Location URL for results.",
    },
  });

export const rateLimitInfoSchema = z
  .object({
    endpointType: z.enum(ENDPOINT_TYPES),
    tier: z.enum(TIERS),
    operations: z.array(z.string()),
    limit: z.number().int(),
    windowSeconds: z.number().int(),
    remaining: z.number().int(),
    resetSeconds: z
      .number()
      .int()
      .meta({ description: "Seconds until the oldest counted request leaves the window; 0 when none is counted." }),
    used: z.number().int(),
  })
  .meta({ id: "RateLimitInfo" });

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().meta({ description: "Stable, snake_case: switch on it." }),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .catchall(z.unknown())
  .meta({
    id: "Problem",
    description:
      "RFC 9457 problem details. Some codes add members: rate_limited (endpointType, limit, windowSeconds, retryAfterSeconds), too_many_items (maxItems), payload_too_large (maxBytes), batch_expired (expiredAt).",
    example: problemBody(
      problemInit("invalid_request", "The request body does not match the submission schema.", {
        errors: [{ path: "items", message: "must hold at least one item" }],
      }),
      EXAMPLE_REQUEST_ID,
    ),
  });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(check: Same<A, B>) => check;
same<Pick<z.infer<typeof rateLimitInfoSchema>, keyof EndpointLimit>, EndpointLimit>(true);
