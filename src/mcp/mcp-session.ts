import { DurableObject } from "cloudflare:workers";
import { readConfig } from "../base/config";
import { log, logError } from "../base/log";
import { type Tenant, tenantOf } from "../base/tenant";
import type { EndpointType } from "../rate-limit/endpoint-types";
import { limiterStub } from "../rate-limit/stub";
import { sessionNotFound } from "./json-rpc-error";
import type { PrincipalWire } from "./principal";
import { idleStep } from "./session-idle";
import type { SessionTransport } from "./session-server";

// How long after a session closed its object's instance is reset: its close call has answered by then.
const DISCARD_AFTER_MS = 1000;

/**
 * One MCP session (Streamable HTTP): the SDK's server and transport (session-server.ts), held in
 * memory by a Durable Object named after the session's customer and id, so every request of the
 * session (a tool call's stream, and the elicitation answer the client POSTs while it waits) reaches
 * the same instance. Nothing is stored: a session outlives neither an eviction nor a
 * deploy, and a client then gets 404, which tells it (MCP spec) to initialize a new one. The
 * customer's RateLimiter counts its open sessions (mcp-sessions.ts); this object tells it when the
 * session closes: ended by its client, idle (its timer, idleStep), displaced over the key's cap
 * (`close`), or found lost.
 */
export class McpSession extends DurableObject<Env> {
  #transport: Promise<SessionTransport> | undefined;
  #session: { id: string; tenant: Tenant } | undefined;
  #usedAt = 0;
  #answering = 0;
  #idleCheck: ReturnType<typeof setTimeout> | undefined;
  // Set once the session is over, even before it opened: under a flood, the door may displace a session
  // whose initialize has not reached this object yet, and that initialize must then open nothing.
  #ended = false;

  /**
   * Serves one request of the session; `principal` is who the door authenticated it as (its key, scopes
   * and allowance), `counted` what each endpoint type counts (get_rate_limits' list), `body` the POST's JSON the door read (within its limit).
   */
  async serve(
    request: Request,
    sessionId: string,
    principal: PrincipalWire,
    counted: Record<EndpointType, string[]>,
    body?: unknown,
  ): Promise<Response> {
    const { apiKey } = principal;
    this.#usedAt = Date.now();
    const opening = !request.headers.has("mcp-session-id");
    if (!this.#transport) {
      if (!opening || this.#ended) {
        await limiterStub(this.env, apiKey).closeMcpSession(sessionId);
        return sessionNotFound();
      }
      this.#session = { id: sessionId, tenant: tenantOf(apiKey) };
      this.#transport = import("./session-server").then(({ openSession }) =>
        openSession(this.env, sessionId, counted, () => void this.#forget("ended")),
      );
      this.#checkAt(this.#usedAt + this.#idleMs());
    }
    const transport = await this.#transport;
    const response = await transport.handleRequest(request, {
      parsedBody: body,
      authInfo: { token: "", clientId: apiKey.keyId, scopes: principal.scopes, extra: { principal } },
    });
    // An initialize refused opens nothing.
    if (opening && !response.ok) await this.close("refused");
    return request.method === "POST" ? this.#tracked(response) : response;
  }

  // A timer, not an alarm: what it guards lives in this instance's memory only, so an instance that is
  // gone needs no check (its memory went with it), and a session costs no storage write.
  #checkAt(at: number): void {
    clearTimeout(this.#idleCheck);
    this.#idleCheck = setTimeout(
      () => void this.#idleCheckDue().catch((error: unknown) => logError("mcp_idle_check_failed", error)),
      Math.max(0, at - Date.now()),
    );
  }

  async #idleCheckDue(): Promise<void> {
    const activity = { open: this.#transport !== undefined, answering: this.#answering, usedAt: this.#usedAt };
    const step = idleStep(activity, Date.now(), this.#idleMs());
    if (step.kind === "close") return this.close("idle");
    if (step.kind !== "wait") return;
    this.#checkAt(step.at);
    if (step.inUse && this.#session)
      await limiterStub(this.env, this.#session.tenant).touchMcpSession(this.#session.id);
  }

  /** Closes the session (idle, or displaced over its key's cap): its streams end, its memory and its place free. */
  async close(reason: "idle" | "displaced" | "refused" = "displaced"): Promise<void> {
    const transport = this.#transport;
    await this.#forget(reason);
    if (!transport) return;
    await (await transport).close();
    this.#discard();
  }

  // The runtime keeps an object's instance in memory after its session closed (a closed transport and
  // server are garbage, the instance is not): reset it a moment after this call answered (so its answer is
  // not cut), so the memory goes. A session that never opened keeps its small instance, which remembers to
  // open nothing (#ended); one its client ended (DELETE) keeps it too, as that request is still answering.
  #discard(): void {
    setTimeout(() => {
      try {
        this.ctx.abort("session closed");
      } catch {
        // abort() throws to end what called it: here, only this timer.
      }
    }, DISCARD_AFTER_MS);
  }

  async #forget(reason: "idle" | "displaced" | "refused" | "ended"): Promise<void> {
    this.#ended = true;
    this.#transport = undefined;
    const session = this.#session;
    this.#session = undefined;
    clearTimeout(this.#idleCheck);
    if (!session) return;
    log("mcp_session_closed", { sessionId: session.id, reason });
    await limiterStub(this.env, session.tenant).closeMcpSession(session.id);
  }

  #idleMs(): number {
    return readConfig(this.env).mcpSessions.idleMs;
  }

  /** The answer, counted as answering until its body ends or its client goes. */
  #tracked(response: Response): Response {
    if (!response.body) return response;
    const reader = response.body.getReader();
    this.#answering++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.#answering--;
      this.#usedAt = Date.now();
    };
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const next = await reader.read();
          if (next.done) {
            end();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      cancel: (reason) => {
        end();
        return reader.cancel(reason);
      },
    });
    return new Response(body, response);
  }
}
