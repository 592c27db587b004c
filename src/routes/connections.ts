// The assistants connected with OAuth: GET /v2/{environment}/me/connections and DELETE …/{id}
// (the operations: src/operations/connections.ts).
import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { connectionViewSchema } from "../connections/connection";
import { callerOf } from "../middleware/caller";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, keyRequired } from "../openapi/common";
import { requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { endConnection, listConnections } from "../operations/connections";
import { type DeclaredRoute, declareRoute } from "./declare";

const connectionParams = OPENAPI_METADATA
  ? once(() =>
      environmentParams().extend({
        id: z.string().meta({ description: "The connection's id (GET …/me/connections lists them)." }),
      }),
    )
  : notInTheWorker;
const TAGS = ["Connections"];

const list = declareRoute({
  route: {
    method: "get",
    path: "/me/connections",
    middleware: [rateLimit(listConnections, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "listConnections",
    tags: TAGS,
    summary: "The assistants connected to this environment with OAuth (claude.ai, ChatGPT, …)",
    description:
      "Each connection a person made on the consent page with one of this customer's keys of this environment: the assistant's name as it registered, what it may do (read, spend, erase), and when it was made and last used. Never the key.",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: {
        description: "The connections, oldest first.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: z.object({ connections: z.array(connectionViewSchema) }) } },
      },
      ...authProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await listConnections(callerOf(c)), 200),
});

const end = declareRoute({
  route: { method: "delete", path: "/me/connections/{id}", middleware: [rateLimit(endConnection)] },
  docs: OPENAPI_METADATA && {
    operationId: "deleteConnection",
    tags: TAGS,
    summary: "End a connection: the assistant's token is refused from its next request on",
    security: keyRequired,
    request: { params: connectionParams() },
    responses: {
      204: { description: "Ended.", headers: requestIdHeaders() },
      ...authProblems(),
      404: problem(["not_found"], "No such connection for this customer and environment"),
      500: internalError(),
    },
  },
  handler: async (c) => {
    await endConnection(callerOf(c), c.req.param("id"));
    return c.body(null, 204);
  },
});

export const connectionRoutes: readonly DeclaredRoute[] = [list, end];
