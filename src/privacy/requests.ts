import * as z from "zod";
import { documented } from "../base/once";
import { type NormalizedPerson, normalizePerson, personInputSchema } from "../contact-info/person";
import { badRequest } from "../http/errors";
import { describeErrors, fieldErrorOf } from "../http/field-errors";

// The privacy routes' bodies: a person is given as a submit item is (personInputSchema),
// with the same checks, so what can be submitted can be erased and suppressed.

export const MAX_SUPPRESSIONS_PER_REQUEST = 1_000;

export const erasureRequestSchema = personInputSchema
  .safeExtend({
    suppress: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta(
        documented(
          OPENAPI_METADATA && {
            description: "Also add the person to the do-not-enrich list (the default); false: erase only.",
            example: true,
          },
        ),
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
        documented(
          OPENAPI_METADATA && {
            description:
              "People as on submit: each with linkedinUrl, email, or a name with companyDomain or companyName.",
          },
        ),
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
