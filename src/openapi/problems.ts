// Problem responses, typed per code: each code the API answers with has its own
// schema (its status, title and type fixed, its extension members typed), and each
// response names exactly the codes it may carry, so a generated client narrows on `code`.
// Nothing is made at the top level (the schemas on first use, the examples per call): the Worker
// imports this module only for route docs its build drops, so esbuild drops it too (routes/declare.ts).
import type { OpenApiGeneratorV31, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import * as z from "zod";
import { budgetExceededMembers } from "../credits/budget-views";
import { ERROR_CODES, type ErrorCode } from "../http/error-codes";
import { problemInit } from "../http/errors";
import { type ApiError, MAX_LISTED_ERRORS, PROBLEM_CONTENT_TYPE, problemBody } from "../http/problem";
import { ENDPOINT_TYPES } from "../rate-limit/endpoint-types";
import { type Header, requestIdHeader } from "./headers";
import { examples } from "./problem-examples";

const EXAMPLE_REQUEST_ID = "8f0c2e1a9b7d4c3e";

/** The members each code adds to the RFC 9457 ones, as the factories in http/errors.ts send them. */
const problemMembers = () => {
  const fieldErrors = z
    .array(z.object({ path: z.string(), message: z.string() }))
    .max(MAX_LISTED_ERRORS)
    .meta({
      description: `One entry per invalid field or parameter, the first ${MAX_LISTED_ERRORS}: where (\`path\`) and what is wrong (an unknown-keys message names the first few).`,
    });
  const errorCount = z
    .int()
    .min(1)
    .meta({
      description: `How many problems there were: \`errors\` lists the first ${MAX_LISTED_ERRORS}, in order.`,
    });
  const listedErrors = { errors: fieldErrors, errorCount };
  const retryAfterSeconds = z
    .int()
    .min(0)
    .meta({ description: "Seconds to wait before retrying; the Retry-After header says the same." });
  return {
    bad_request: {},
    incomplete_body: {},
    invalid_idempotency_key: listedErrors,
    invalid_last_event_id: {},
    invalid_query: listedErrors,
    invalid_request: { errors: fieldErrors.optional(), errorCount: errorCount.optional() },
    invalid_authorization_request: {},
    malformed_json: {},
    not_delivered: {},
    webhook_not_configured: {},
    budget_exceeded: budgetExceededMembers(),
    invalid_api_key: {},
    invalid_token: {},
    missing_api_key: {},
    environment_mismatch: {},
    not_found: {},
    method_not_allowed: {},
    idempotency_in_progress: { retryAfterSeconds },
    batch_not_completed: {},
    crm_not_connected: {},
    crm_unauthorized: {},
    crm_sync_not_appliable: {},
    crm_sync_not_undoable: {},
    crm_account_changed: {},
    too_many_webhook_endpoints: {},
    crm_token_refused: {},
    crm_list_not_found: {},
    crm_refused: {},
    crm_unavailable: { retryAfterSeconds },
    crm_bad_answer: { retryAfterSeconds },
    client_metadata_unavailable: {},
    batch_deleted: { deletedAt: z.iso.datetime().meta({ description: "When its owner deleted the batch." }) },
    batch_expired: { expiredAt: z.iso.datetime().meta({ description: "When retention deleted the batch's data." }) },
    payload_too_large: {
      maxBytes: z.int().min(1).meta({ description: "The largest body this deployment accepts, in bytes." }),
    },
    too_many_items: { maxItems: z.int().min(1).meta({ description: "The most items one batch may hold here." }) },
    unsupported_media_type: {},
    idempotency_key_reused: {},
    rate_limited: {
      endpointType: z.enum(ENDPOINT_TYPES),
      limit: z.int().min(1).meta({ description: "Requests allowed per window for this endpoint type." }),
      windowSeconds: z.int().min(1),
      retryAfterSeconds,
    },
    too_many_streams: {
      scope: z
        .enum(["customer", "batch"])
        .meta({ description: "Which cap: the customer's streams in this environment, or the batch's." }),
      maxStreams: z.int().min(1).meta({ description: "The most streams open at once in that scope." }),
      retryAfterSeconds,
    },
    internal_error: {},
  } satisfies Record<ErrorCode, z.ZodRawShape>;
};

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

function codeSchema(code: ErrorCode, members: ReturnType<typeof problemMembers>) {
  const { type, title, status } = problemBody(problemInit(code, ""), EXAMPLE_REQUEST_ID);
  return z
    .object({
      type: z.literal(type).meta({ description: "A stable tag URI per code (not resolvable)." }),
      title: z.literal(title),
      status: z.literal(status),
      detail: z.string().meta({ description: "What went wrong, for people; may change." }),
      code: z.enum([code]).meta({ description: "Stable, snake_case: switch on it." }),
      requestId: z.string().meta({ description: "The x-request-id of the answer: quote it to support." }),
      ...members[code],
    })
    .meta({ id: `${pascal(code)}Problem`, description: `RFC 9457 problem details, code \`${code}\`.` });
}

type CodeSchemas = Record<ErrorCode, ReturnType<typeof codeSchema>>;
let codeSchemas: CodeSchemas | undefined;
/** Every code's schema, made once (each registers its meta id, which zod allows once). */
function schemas(): CodeSchemas {
  const members = problemMembers();
  codeSchemas ??= Object.fromEntries(
    (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [code, codeSchema(code, members)]),
  ) as CodeSchemas;
  return codeSchemas;
}

/** Every code's schema as a component (by its meta id), also those no operation names (bad_request, method_not_allowed): the full catalog. */
type Definition = ConstructorParameters<typeof OpenApiGeneratorV31>[0][number];
export const problemSchemaDefinitions = (): Definition[] =>
  Object.values(schemas()).map((schema) => ({ type: "schema", schema }));

/** A problem body as the Worker sends it, checked against its code's schema (no member undocumented). */
function exampleBody(error: ApiError) {
  const body = problemBody(error.init, EXAMPLE_REQUEST_ID);
  const checked = schemas()[error.init.code].strict().safeParse(body);
  if (!checked.success)
    throw new Error(`OpenAPI: the ${error.init.code} example does not match its schema: ${checked.error.message}`);
  return body;
}

/**
 * A problem+json response carrying one of `codes`, all of one status; the example is
 * the first code's (or `example`, built by the operation with its own values).
 */
export function problem(
  codes: [ErrorCode, ...ErrorCode[]],
  description: string,
  options: { example?: ApiError; headers?: Record<string, Header> } = {},
): ResponseConfig {
  const [first, ...rest] = codes;
  const stray = codes.filter((code) => ERROR_CODES[code] !== ERROR_CODES[first]);
  if (stray.length > 0) throw new Error(`OpenAPI: ${stray.join(", ")} and ${first} answer different statuses`);
  const all = schemas();
  const schema =
    rest.length === 0 ? all[first] : z.discriminatedUnion("code", [all[first], ...rest.map((code) => all[code])]);
  return {
    description: `${description} (code ${codes.map((code) => `\`${code}\``).join(" or ")}).`,
    headers: { "x-request-id": requestIdHeader(), ...options.headers },
    content: { [PROBLEM_CONTENT_TYPE]: { schema, example: exampleBody(options.example ?? examples()[first]) } },
  };
}
