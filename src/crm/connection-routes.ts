// A customer's CRM connections: PUT, GET and DELETE /v2/{environment}/integrations/{provider}, and the list.
import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
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
import { header, requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import {
  connectCrm,
  disconnectCrm,
  listCrmConnections,
  listCrmLists,
  readCrmConnection,
} from "./connection-operations";
import { CRM_PROVIDERS, perCrm } from "./crms";
import { connectRequestSchema, listsQuerySchema } from "./schemas";

const connectionSchema = OPENAPI_METADATA
  ? once(() =>
      z
        .object({
          provider: z.enum(CRM_PROVIDERS),
          accountId: z.string().meta({
            description: `The CRM's account: ${perCrm(({ words }) => `${words.label}'s ${words.account} id`, ", ")}.`,
          }),
          connectedAt: z.iso.datetime(),
        })
        .meta({ id: "CrmConnection" }),
    )
  : notInTheWorker;
const providerParams = () =>
  environmentParams().extend({ provider: z.enum(CRM_PROVIDERS).meta({ param: { example: CRM_PROVIDERS[0] } }) });
// What each CRM's connection saves: its token, and its instance URL where it has one (crm-words.ts, crm.ts).
const tokens = () =>
  perCrm(({ words, endpoint }) =>
    "hostPatternVariable" in endpoint
      ? `${words.label}: ${words.token} and its instanceUrl, https://<your domain> on a host the deployment allows, by default ${endpoint.defaultHostPattern}, with no credentials, path, query or fragment, saved as its origin`
      : `${words.label}: ${words.token}`,
  );
const withRetryAfter = () => ({ headers: { "Retry-After": header("Seconds to wait.", 10, true) } });
const noConnection = () => problem(["not_found"], "No such CRM, or no connection to it");

const connectIntegration = declareRoute({
  route: {
    method: "put",
    path: "/integrations/{provider}",
    middleware: [rateLimit(connectCrm), jsonBody()],
  },
  docs: OPENAPI_METADATA && {
    operationId: "connectIntegration",
    tags: ["CRM"],
    summary: "Connect a CRM",
    description: `Saves the CRM's access token (${tokens()}), after the CRM accepted it (${perCrm(({ words }) => `${words.label}: ${words.tokenCheck}`)}). The token is stored encrypted and never returned. A refused token saves nothing. Connect a CRM sandbox (${perCrm(({ words }) => `a ${words.label} ${words.sandbox}`, ", ")}) to a test key: test results are sandbox data.`,
    security: keyRequired,
    request: {
      params: providerParams(),
      body: {
        required: true,
        content: {
          "application/json": {
            schema: connectRequestSchema().meta({ example: { token: "pat-na1-00000000-0000-0000-0000-000000000000" } }),
          },
        },
      },
    },
    responses: {
      200: {
        description: "Connected.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: connectionSchema() } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "incomplete_body"],
        "The body is not {token, instanceUrl?}, or instanceUrl is not allowed",
      ),
      ...authProblems(),
      404: noConnection(),
      ...jsonBodyProblems(),
      422: problem(["crm_token_refused", "crm_refused"], "The CRM refused the token; nothing was saved"),
      500: internalError(),
      502: problem(["crm_bad_answer"], "The CRM answered what its API does not; nothing was saved", withRetryAfter()),
      503: problem(
        ["crm_unavailable"],
        "The CRM did not answer, or asked us to wait; nothing was saved",
        withRetryAfter(),
      ),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await connectCrm(caller, c.req.param("provider"), c.get("jsonBody")), 200);
  },
});

const listIntegrations = declareRoute({
  route: { method: "get", path: "/integrations", middleware: [rateLimit(listCrmConnections, { parallel: true })] },
  docs: OPENAPI_METADATA && {
    operationId: "listIntegrations",
    tags: ["CRM"],
    summary: "List the connected CRMs",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: {
        description: "The connections (never their tokens).",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: z.object({ integrations: z.array(connectionSchema()) }) } },
      },
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await listCrmConnections(caller), 200);
  },
});

const getIntegration = declareRoute({
  route: {
    method: "get",
    path: "/integrations/{provider}",
    middleware: [rateLimit(readCrmConnection, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getIntegration",
    tags: ["CRM"],
    summary: "Read a CRM connection",
    security: keyRequired,
    request: { params: providerParams() },
    responses: {
      200: {
        description: "The connection (never its token).",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: connectionSchema() } },
      },
      ...authProblems(),
      404: noConnection(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await readCrmConnection(caller, c.req.param("provider")), 200);
  },
});

const disconnectIntegration = declareRoute({
  route: { method: "delete", path: "/integrations/{provider}", middleware: [rateLimit(disconnectCrm)] },
  docs: OPENAPI_METADATA && {
    operationId: "disconnectIntegration",
    tags: ["CRM"],
    summary: "Disconnect a CRM",
    description: "Deletes the saved token. Syncs running stop at their next step, failed with crm_not_connected.",
    security: keyRequired,
    request: { params: providerParams() },
    responses: {
      204: { description: "Disconnected.", headers: requestIdHeaders() },
      ...authProblems(),
      404: noConnection(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    await disconnectCrm(caller, c.req.param("provider"));
    return c.body(null, 204);
  },
});

const crmListSchema = () =>
  z
    .object({
      id: z.string().meta({ description: "What a submit's source.listId takes." }),
      name: z.string(),
      size: z.number().int().optional().meta({ description: "Its members, when the CRM says." }),
    })
    .meta({ id: "CrmList" });

const listIntegrationLists = declareRoute({
  route: {
    method: "get",
    path: "/integrations/{provider}/lists",
    query: listsQuerySchema(),
    middleware: [rateLimit(listCrmLists, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "listIntegrationLists",
    tags: ["CRM"],
    summary: "List a CRM's contact lists",
    description: `The contact lists the connection's token may read, a page at a time (at most 100), to choose the list a submit's source names: ${perCrm(({ words }) => `${words.label}'s ${words.lists}`)}.`,
    security: keyRequired,
    request: {
      params: providerParams(),
      query: z.object({ cursor: z.string().optional().meta({ description: "The nextCursor of the page before." }) }),
    },
    responses: {
      200: {
        description: "One page of lists, in the CRM's order; nextCursor while more remain.",
        headers: requestIdHeaders(),
        content: {
          "application/json": {
            schema: z.object({ lists: z.array(crmListSchema()), nextCursor: z.string().optional() }),
          },
        },
      },
      400: problem(["invalid_query"], "The cursor is not one this API issued"),
      ...authProblems(),
      404: noConnection(),
      409: problem(
        ["crm_not_connected", "crm_unauthorized"],
        "Not connected, or the CRM refused the saved token: reconnect",
      ),
      422: problem(["crm_refused"], "The CRM refused the request"),
      500: internalError(),
      502: problem(
        ["crm_bad_answer"],
        "The CRM answered what its API does not (a page, an unknown shape, pages without end)",
        withRetryAfter(),
      ),
      503: problem(["crm_unavailable"], "The CRM did not answer, or asked us to wait", withRetryAfter()),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await listCrmLists(caller, c.req.param("provider"), c.req.query()), 200);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const integrationRoutes: readonly DeclaredRoute[] = [
  connectIntegration,
  listIntegrations,
  getIntegration,
  listIntegrationLists,
  disconnectIntegration,
];
