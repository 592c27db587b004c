// The operations behind GET and DELETE /v2/{environment}/me/connections[/{id}]: the assistants a person
// let in with this customer's keys (the consent page, src/mcp/oauth/), whatever the door.
import { tenantOf } from "../base/tenant";
import { type ConnectionView, viewOf } from "../connections/connection";
import { connectionsStub } from "../connections/stub";
import { notFound } from "../http/errors";
import { operation } from "../rate-limit/operation";
import type { Caller } from "./caller";

/** This customer's connections in the caller's environment, oldest first. */
export const listConnections = operation(
  "rate_limits",
  async function listConnections({ env, apiKey }: Caller): Promise<{ connections: ConnectionView[] }> {
    const connections = await connectionsStub(env, tenantOf(apiKey)).list();
    return { connections: connections.map(viewOf) };
  },
);

/**
 * Ends a connection: its token is refused from its next request on (the door asks the connections
 * object on every request). The OAuth grant itself is left to expire in KV: it can no longer act.
 */
export const endConnection = operation(
  "contact_info_request",
  async function endConnection({ env, apiKey }: Caller, id: string): Promise<void> {
    if (!(await connectionsStub(env, tenantOf(apiKey)).end(id)))
      throw notFound("No such connection for this customer and environment.");
  },
);
