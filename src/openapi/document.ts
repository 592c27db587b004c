// The OpenAPI 3.1 document, built from the routes the app serves (routes/api-routes.ts's API_ROUTES):
// each route's declaration is its entry, registered by @hono/zod-openapi's OpenAPIHono
// under the same mounts. Run at build time (scripts/openapi.ts), never in the Worker.

// First: the routes below must load with their metadata.
import "./documenting";
import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { OpenAPIHono, type OpenAPIRoute, type RouteConfig } from "@hono/zod-openapi";
import * as z from "zod";
import type { AppEnv } from "../app-env";
import { DEFAULT_MAX_BATCH_ITEMS, inWords } from "../base/defaults";
import { itemCompletedEventSchema } from "../contact-info/item-completed-event";
import { batchCompletedEventSchema } from "../contact-info/webhook-event";
import { MAX_ITEMS_PER_DELIVERY } from "../contact-info/webhook-events";
import { budgetThresholdEventSchema } from "../credits/budget-event";
import { crmLabels } from "../crm/crms";
import { knownParameters, type QueryParameters } from "../http/query";
import { limitOf } from "../middleware/rate-limit";
import { API_ROUTES } from "../routes/api-routes";
import type { DeclaredRoute } from "../routes/declare";
import { noKey } from "./common";
import { problem, problemSchemaDefinitions } from "./problems";
import { withRateLimitDocs } from "./rate-limit-docs";
import { refusal } from "./refusal";
import { API_KEY_SCHEME } from "./security";

/** A declaration as OpenAPIHono takes it: its route with its docs. */
function documented({ route: { query, ...route }, docs, handler }: DeclaredRoute): OpenAPIRoute<RouteConfig, AppEnv> {
  if (!docs)
    throw new Error(
      `OpenAPI: ${route.method} ${route.path} was loaded without its metadata (OPENAPI_METADATA is false)`,
    );
  // A rate-limited route's limit is said once, by its middleware: its entry's sentence, fields and 429 follow.
  const endpointType = limitOf(route.middleware);
  const withLimits = endpointType ? withRateLimitDocs(docs, endpointType) : docs;
  return {
    route: { ...route, ...(route.method === "get" ? withQueryRule(route.path, query, withLimits) : withLimits) },
    handler,
  };
}

type Docs = DeclaredRoute["docs"] & object;

/**
 * A GET route's entry under the one query rule (routes/declare.ts): it documents exactly the parameters
 * the Worker takes, and its 400 says that others are refused (written here when the route has no 400).
 */
function withQueryRule(path: string, query: QueryParameters | undefined, docs: Docs): Docs {
  const documentedQuery = docs.request?.query;
  const names = (schema: QueryParameters | undefined) => Object.keys(schema?.shape ?? {}).sort();
  const taken = names(query);
  const shown = names(documentedQuery instanceof z.ZodObject ? documentedQuery : undefined);
  if (taken.join() !== shown.join())
    throw new Error(`OpenAPI: GET ${path} takes query parameters [${taken}] but documents [${shown}]`);
  if (docs.responses[400]) return docs;
  return {
    ...docs,
    responses: {
      ...docs.responses,
      400: problem(
        ["invalid_query"],
        taken.length === 0 ? "A query parameter was given: this route takes none" : "A query parameter is unknown",
        { example: refusal(() => knownParameters(query)({ sort: "name" })) },
      ),
    },
  };
}

function documentedApp(): OpenAPIHono {
  const app = new OpenAPIHono();
  app.openAPIRegistry.registerComponent("securitySchemes", API_KEY_SCHEME, {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description:
      "Your API key, ck_test_… or ck_live_…, matching the environment in the path. For `npm run dev`: the README's local keys.",
  });
  for (const [mount, routes] of Object.entries(API_ROUTES))
    app.route(mount, new OpenAPIHono<AppEnv>().openapiRoutes(routes.map(documented)));
  // The webhooks we send: their receiver authenticates us by signature.
  app.openAPIRegistry.registerWebhook({
    method: "post",
    path: "batch.completed",
    operationId: "batchCompleted",
    tags: ["Webhooks"],
    summary: "A batch you submitted with webhookUrl has completed",
    description:
      "Signed per Standard Webhooks with your key's whsec_ secret: webhook-id (stable across retries), webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>). Answer 2xx; other answers and timeouts are retried with backoff. Sent without an API key: verify the signature.",
    security: noKey,
    request: { body: { content: { "application/json": { schema: batchCompletedEventSchema() } } } },
    responses: { 200: { description: "Received." } },
  });
  app.openAPIRegistry.registerWebhook({
    method: "post",
    path: "item.completed",
    operationId: "itemCompleted",
    tags: ["Webhooks"],
    summary: "Items of a batch you submitted with webhookEvents including item.completed have finished",
    description: `One delivery for the items one record of results finished (the items of a few queue messages, with their duplicates; the items that failed validation, at submission), at most ${MAX_ITEMS_PER_DELIVERY} items to a delivery, so a ${inWords(DEFAULT_MAX_BATCH_ITEMS)}-item batch makes at least ${DEFAULT_MAX_BATCH_ITEMS / MAX_ITEMS_PER_DELIVERY}. Every item of the batch is in exactly one delivery, as the status route shows it once finished. Each delivery has its own webhook-id, the same on every retry (deduplicate on it); deliveries may arrive in any order and before or after batch.completed. Signed, retried, re-driven and stopped by a DELETE like batch.completed.`,
    security: noKey,
    request: { body: { content: { "application/json": { schema: itemCompletedEventSchema() } } } },
    responses: { 200: { description: "Received." } },
  });
  app.openAPIRegistry.registerWebhook({
    method: "post",
    path: "budget.threshold",
    operationId: "budgetThreshold",
    tags: ["Webhooks"],
    summary: "This month's charges reached one of your budget's alert percents",
    description:
      "Sent to the webhook endpoints subscribed to budget.threshold, once per UTC month and alert percent (PUT …/me/budget sets them; default 50, 80 and 100), when the charges a batch reports take the month's used credits to it. Its webhook-id is the same for every endpoint and retry. Signed and retried like item.completed.",
    security: noKey,
    request: { body: { content: { "application/json": { schema: budgetThresholdEventSchema() } } } },
    responses: { 200: { description: "Received." } },
  });
  return app;
}

export function openApiDocument() {
  // Every problem code's schema is a component, also those no operation names: the full catalog.
  const definitions = [...documentedApp().openAPIRegistry.definitions, ...problemSchemaDefinitions()];
  return new OpenApiGeneratorV31(definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Contact-info batch API",
      version: "2.0.0",
      description:
        "Batch person contact-information enrichment. Submit people, poll the batch, read your rate limits. Every error is RFC 9457 problem+json with a stable `code`; each response lists the codes it may carry.\n\n**From an AI assistant:** the same operations are MCP tools at `/mcp` (Streamable HTTP; your API key in `x-api-key` or `Authorization: Bearer`). A tool that spends credits asks you to confirm the most it could cost before it runs; the README's \"Use it from an AI assistant\" has the configuration for Claude Desktop, Cursor and other clients. Its requests count against your rate limits: a tool call as its operation's endpoint type, every other request (initialize, tools/list, ping) as `mcp_protocol` (300 a minute unless configured), listed by `GET /v2/{environment}/me/rate-limits`.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "API support", email: "api-support@example.com" },
    },
    servers: [{ url: "/", description: "This deployment" }],
    tags: [
      { name: "Contact info", description: "Submit batches and read their results." },
      { name: "Rate limits", description: "Per-key limits per endpoint type." },
      { name: "Usage", description: "Items processed per day, for billing and planning." },
      { name: "Feedback", description: "Report a wrong contact: a refund, and never delivered to you again." },
      { name: "Privacy", description: "Erase a person everywhere you hold them; the do-not-enrich list." },
      {
        name: "CRM",
        description: `Connect ${crmLabels()}, enrich a CRM list, and write the results back, previewed first.`,
      },
      { name: "Webhooks", description: "Events we send to you." },
      {
        name: "Connections",
        description: "The AI assistants a person connected with OAuth (claude.ai, ChatGPT): see them, end them.",
      },
      { name: "Meta", description: "Health and documentation." },
    ],
  });
}
