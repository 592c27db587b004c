// Privacy's doors, under /v2/{environment}/privacy (docs/storage.md, "Privacy"): erasure of a person across
// the caller's batches and its receipt, people added to the do-not-enrich list, and the two lists of keyed
// hashes (list-routes.ts). Each handler calls its operation (operations.ts).
import { callerOf } from "../middleware/caller";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import {
  authProblems,
  environmentParams,
  internalError,
  jsonBodyProblems,
  keyRequired,
  unknownEnvironment,
} from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { keyedHashListRouteDeclarations } from "./list-routes";
import { erasePersonOperation, readErasure, suppressPeople } from "./operations";
import {
  erasureReceiptSchema,
  erasureRequestSchema,
  MAX_SUPPRESSIONS_PER_REQUEST,
  suppressionRequestSchema,
  suppressionsAddedSchema,
} from "./schemas";

const bodyProblems = () => ({
  400: problem(
    ["invalid_request", "malformed_json", "incomplete_body"],
    "The body is not JSON, does not identify a person as a submit item does, or was cut short",
  ),
  ...jsonBodyProblems(),
});

// Its rate limit's fields are added by the document (openapi/rate-limit-docs.ts), as to every limited route.

const erasePersonRoute = declareRoute({
  route: {
    method: "post",
    path: "/privacy/erasures",
    middleware: [rateLimit(erasePersonOperation), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "erasePerson",
    tags: ["Privacy"],
    summary: "Erase a person from all your batches and caches",
    description:
      "Give one identifier, as on submit: email, linkedinUrl, or a name with companyDomain or companyName. Every item of your retained batches in this environment that carries it keeps its place, status and credits (the batches' counters do not change) and loses its input and results (erasedAt is set; an item still pending ends failed with erased); the person's cached results and verdicts are deleted. Unless suppress is false the person is also added to the do-not-enrich list. The receipt holds counts only. Batches are found through an index of hashed identifiers (a batch not yet wholly in it is asked anyway).",
    security: keyRequired,
    request: {
      params: environmentParams(),
      body: { required: true, content: { "application/json": { schema: erasureRequestSchema } } },
    },
    responses: {
      200: {
        description: "Erased.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: erasureReceiptSchema() } },
      },
      ...bodyProblems(),
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await erasePersonOperation(caller, c.get("jsonBody")), 200);
  },
});

const getErasure = declareRoute({
  route: {
    method: "get",
    path: "/privacy/erasures/{id}",
    middleware: [rateLimit(readErasure, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getErasure",
    tags: ["Privacy"],
    summary: "Read an erasure's receipt",
    security: keyRequired,
    request: { params: environmentParams().extend({ id: erasureReceiptSchema().shape.id }) },
    responses: {
      200: {
        description: "The receipt.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: erasureReceiptSchema() } },
      },
      ...authProblems(),
      404: problem(["not_found"], "No such erasure for this customer and environment"),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await readErasure(callerOf(c), c.req.param("id")), 200),
});

const addSuppressions = declareRoute({
  route: {
    method: "put",
    path: "/privacy/suppressions",
    middleware: [rateLimit(suppressPeople), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "addSuppressions",
    tags: ["Privacy"],
    summary: "Add people to the do-not-enrich list",
    description: `Up to ${MAX_SUPPRESSIONS_PER_REQUEST} people, each as a submit item. A suppressed person's items, also in batches submitted before, end failed with suppressed when they are processed: no data source is asked and nothing is charged. Adding a person again changes nothing. Only hashed keys are stored.`,
    security: keyRequired,
    request: {
      params: environmentParams(),
      body: { required: true, content: { "application/json": { schema: suppressionRequestSchema } } },
    },
    responses: {
      200: {
        description: "Added.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: suppressionsAddedSchema() } },
      },
      ...bodyProblems(),
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await suppressPeople(caller, c.get("jsonBody")), 200);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const privacyRoutes: readonly DeclaredRoute[] = [
  erasePersonRoute,
  getErasure,
  addSuppressions,
  ...keyedHashListRouteDeclarations,
];
