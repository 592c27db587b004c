// Response shapes of the API as zod schemas, for the OpenAPI document. The
// compile-time checks at the end tie each one to the type the Worker returns,
// so the document cannot drift from the code. Made on first use (src/base/once.ts): the MCP tools read some.
import * as z from "zod";
import { batchIdSchema } from "../base/batch-id";
import { notInTheWorker, once } from "../base/once";
import { ENDPOINT_TYPES, type EndpointLimit, TIERS } from "../rate-limit/endpoint-types";
import { receiptExample } from "./examples";

export const receiptSchema = OPENAPI_METADATA
  ? once(() =>
      z
        .object({
          batchId: batchIdSchema,
          itemCount: z.number().int(),
          message: z.string(),
        })
        .meta({
          id: "BatchReceipt",
          example: receiptExample,
        }),
    )
  : notInTheWorker;

export const rateLimitInfoSchema = once(() =>
  z
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
    .meta({ id: "RateLimitInfo" }),
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(check: Same<A, B>) => check;
OPENAPI_METADATA &&
  same<Pick<z.infer<ReturnType<typeof rateLimitInfoSchema>>, keyof EndpointLimit>, EndpointLimit>(true);
