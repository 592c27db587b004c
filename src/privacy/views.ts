// Privacy as the API shows it: response shapes as zod schemas, the one source of
// both the TypeScript types and the OpenAPI document. No personal data: counts,
// dates and hashed keys only. Only the document reads the response schemas (the
// Worker only their types): made on first use (src/base/once.ts).
import * as z from "zod";
import { documented, once } from "../base/once";

export const suppressionKeySchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta(
    documented(
      OPENAPI_METADATA && {
        description:
          "A keyed hash (HMAC-SHA-256, hex, under a key of this customer's own) of one identifier of the person, normalized: an email, a LinkedIn profile, or a name (first and last words, folded: case, accents and middle names do not matter) with a company domain or name. A person given with several identifiers has one key for each.",
        example: "5f1c0d3ab2e0f0a6d2c7b3e9a1f4c8d7e6b5a4f3e2d1c0b9a8f7e6d5c4b3a291",
      },
    ),
  );

export const erasureReceiptSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.uuid().meta({ description: "The erasure's id: read the receipt again at GET …/privacy/erasures/{id}." }),
      erasedAt: z.iso.datetime().meta({ example: "2026-11-26T14:00:00.000Z" }),
      items: z
        .int()
        .min(0)
        .meta({ description: "Items erased, across all your retained batches in this environment.", example: 2 }),
      batches: z.int().min(0).meta({ description: "Batches that held at least one of them.", example: 2 }),
    })
    .meta({ id: "ErasureReceipt" }),
);

const suppressionSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      key: suppressionKeySchema,
      createdAt: z.iso.datetime().meta({ description: "When it was added." }),
    })
    .meta({ id: "Suppression" }),
);

export const suppressionListSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      suppressions: z.array(suppressionSchema()).meta({ description: "Newest first." }),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id: "SuppressionList" }),
);

export const suppressionsAddedSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      keys: z
        .array(z.array(suppressionKeySchema))
        .meta({ description: "Per item given, in order: the keys it is suppressed under." }),
      added: z.int().min(0).meta({ description: "Keys new to the list (a key already there is kept, with its date)." }),
    })
    .meta({ id: "SuppressionsAdded" }),
);

export const doNotDeliverKeySchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta(
    documented(
      OPENAPI_METADATA && {
        description:
          "A keyed hash (HMAC-SHA-256, hex, under a key of this customer's own) of a contact value reported through POST …/feedback: an email (case-insensitive) or a phone number.",
        example: "9a3e5c1f0b7d2e4a6c8f1b3d5e7a9c0b2d4f6a8c1e3b5d7f9a0c2e4b6d8f1a3c",
      },
    ),
  );

const doNotDeliverEntrySchema = /* @__PURE__ */ once(() =>
  z
    .object({
      key: doNotDeliverKeySchema,
      createdAt: z.iso.datetime().meta({ description: "When the value was first reported." }),
    })
    .meta({ id: "DoNotDeliverEntry" }),
);

export const doNotDeliverListSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      doNotDeliver: z.array(doNotDeliverEntrySchema()).meta({ description: "Newest first." }),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id: "DoNotDeliverList" }),
);

export type ErasureReceipt = z.infer<ReturnType<typeof erasureReceiptSchema>>;
export type SuppressionList = z.infer<ReturnType<typeof suppressionListSchema>>;
export type DoNotDeliverList = z.infer<ReturnType<typeof doNotDeliverListSchema>>;
