// Privacy's schemas: the bodies its routes take (a person is given as a submit item is, personInputSchema,
// with the same checks, so what can be submitted can be erased and suppressed) and what they answer, zod
// schemas that are the one source of the TypeScript types, the validation and the OpenAPI document. No
// personal data in an answer: counts, dates and hashed keys only. The response schemas are made on first
// use (src/base/once.ts): the MCP tools' output schemas, and those only the document reads under OPENAPI_METADATA.
import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { type NormalizedPerson, normalizePerson, personInputSchema } from "../contact-info/person";
import { badRequest } from "../http/errors";
import { describeErrors, fieldErrorOf } from "../http/field-errors";

export const MAX_SUPPRESSIONS_PER_REQUEST = 1_000;

export const erasureRequestSchema = personInputSchema
  .safeExtend({
    suppress: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta(
        OPENAPI_METADATA
          ? {
              description: "Also add the person to the do-not-enrich list (the default); false: erase only.",
              example: true,
            }
          : {},
      ),
  })
  .meta({ id: "ErasureRequest", example: { email: "ada.lovelace@analytical.example" } });

export const suppressionRequestSchema = z
  .strictObject({
    items: z
      .array(personInputSchema)
      .min(1, { error: "must hold at least one item" })
      .max(MAX_SUPPRESSIONS_PER_REQUEST, { error: `must hold at most ${MAX_SUPPRESSIONS_PER_REQUEST} items` })
      .meta(
        OPENAPI_METADATA
          ? {
              description:
                "People as on submit: each with linkedinUrl, email, or a name with companyDomain or companyName.",
            }
          : {},
      ),
  })
  .meta({ id: "SuppressionRequest", example: { items: [{ email: "ada.lovelace@analytical.example" }] } });

function parse<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => fieldErrorOf(issue));
  throw badRequest("invalid_request", `The request body is not ${what}: ${describeErrors(errors)}.`, errors);
}

/** The person to erase, normalized, and whether to suppress them; a 400 invalid_request naming each problem. */
export function parseErasureRequest(body: unknown): { person: NormalizedPerson; suppress: boolean } {
  const { suppress = true, ...input } = parse(erasureRequestSchema, body, "a person to erase");
  return { person: normalizePerson(input), suppress };
}

/** The people to suppress, normalized; a 400 invalid_request naming each problem (items.N.field). */
export function parseSuppressionRequest(body: unknown): NormalizedPerson[] {
  return parse(suppressionRequestSchema, body, "a list of people to suppress").items.map(normalizePerson);
}

export const erasureReceiptSchema = once(() =>
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

/** A key of one of the two keyed-hash lists (privacy/storage/keyed-hash-list.ts): a hex HMAC-SHA-256. */
const keyedHashSchema = (docs: { description: string; example: string } | false) =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta(docs || {});

/** A keyed-hash list as a page shows it: its entries under `field`, newest first, and the next page's cursor. */
function keyedHashListSchema(key: z.ZodString, ids: { entry: string; list: string }, field: string, createdAt: string) {
  const entry = z.object({ key, createdAt: z.iso.datetime().meta({ description: createdAt }) }).meta({ id: ids.entry });
  return z
    .object({
      [field]: z.array(entry).meta({ description: "Newest first." }),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id: ids.list });
}

export const suppressionKeySchema = keyedHashSchema(
  OPENAPI_METADATA && {
    description:
      "A keyed hash (HMAC-SHA-256, hex, under a key of this customer's own) of one identifier of the person, normalized: an email, a LinkedIn profile, or a name (first and last words, folded: case, accents and middle names do not matter) with a company domain or name. A person given with several identifiers has one key for each.",
    example: "5f1c0d3ab2e0f0a6d2c7b3e9a1f4c8d7e6b5a4f3e2d1c0b9a8f7e6d5c4b3a291",
  },
);

export const suppressionListSchema = OPENAPI_METADATA
  ? once(() =>
      keyedHashListSchema(
        suppressionKeySchema,
        { entry: "Suppression", list: "SuppressionList" },
        "suppressions",
        "When it was added.",
      ),
    )
  : notInTheWorker;

export const suppressionsAddedSchema = once(() =>
  z
    .object({
      keys: z
        .array(z.array(suppressionKeySchema))
        .meta({ description: "Per item given, in order: the keys it is suppressed under." }),
      added: z.int().min(0).meta({ description: "Keys new to the list (a key already there is kept, with its date)." }),
    })
    .meta({ id: "SuppressionsAdded" }),
);

export const doNotDeliverKeySchema = keyedHashSchema(
  OPENAPI_METADATA && {
    description:
      "A keyed hash (HMAC-SHA-256, hex, under a key of this customer's own) of a contact value reported through POST …/feedback: an email (case-insensitive) or a phone number.",
    example: "9a3e5c1f0b7d2e4a6c8f1b3d5e7a9c0b2d4f6a8c1e3b5d7f9a0c2e4b6d8f1a3c",
  },
);

export const doNotDeliverListSchema = OPENAPI_METADATA
  ? once(() =>
      keyedHashListSchema(
        doNotDeliverKeySchema,
        { entry: "DoNotDeliverEntry", list: "DoNotDeliverList" },
        "doNotDeliver",
        "When the value was first reported.",
      ),
    )
  : notInTheWorker;

export type ErasureReceipt = z.infer<ReturnType<typeof erasureReceiptSchema>>;
