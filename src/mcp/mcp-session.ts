import { DurableObject } from "cloudflare:workers";
import type { ApiKeyRecord } from "../keys/api-key";
import { sessionNotFound } from "./json-rpc-error";
import type { SessionTransport } from "./session-server";

/**
 * One MCP session (Streamable HTTP): the SDK's server and transport (session-server.ts), held in
 * memory by a Durable Object named after the session's customer and id, so every request of the
 * session (a tool call's stream, and the elicitation answer the client POSTs while it waits) reaches
 * the same instance. Nothing is stored: a session outlives neither an eviction nor a deploy, and a
 * client then gets 404, which tells it (MCP spec) to initialize a new one.
 */
export class McpSession extends DurableObject<Env> {
  #transport: Promise<SessionTransport> | undefined;

  /** Serves one request of the session; `apiKey` is the record the door authenticated this request with. */
  async serve(request: Request, sessionId: string, apiKey: ApiKeyRecord): Promise<Response> {
    if (!this.#transport) {
      if (request.headers.has("mcp-session-id")) return sessionNotFound();
      this.#transport = import("./session-server").then(({ openSession }) =>
        openSession(this.env, sessionId, () => {
          this.#transport = undefined;
        }),
      );
    }
    const transport = await this.#transport;
    return transport.handleRequest(request, {
      authInfo: { token: "", clientId: apiKey.keyId, scopes: [], extra: { apiKey } },
    });
  }
}
