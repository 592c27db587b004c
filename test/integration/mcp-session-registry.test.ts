import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { objectNamed } from "../../src/base/placement";
import { tenantName } from "../../src/base/tenant";
import { MCP_SCOPES } from "../../src/connections/connection";
import { type McpAdmission, REGISTRY_GRACE_MS } from "../../src/rate-limit/mcp-sessions";
import { limiterStub } from "../../src/rate-limit/stub";
import { apiOperations } from "../../src/routes/api-routes";
import { createKey, setClockAhead } from "../helpers";

// The customer's RateLimiter keeps its open MCP sessions (mcp_sessions): the one call each MCP request
// makes there refuses, counts, and opens or touches the request's session.
const rules = { maxPerKey: 2, idleMs: 60_000 };
const limit = { limit: 1000, windowSeconds: 60 };
const limits = { contact_info_request: limit, contact_info_status: limit, rate_limits: limit, mcp_protocol: limit };

afterEach(() => {
  vi.useRealTimers();
});

async function limiterOfNewKey(mcpLimit = limit) {
  const { record } = await createKey();
  const stub = limiterStub(env, record);
  const admit = (session: McpAdmission["session"], protocolRequests = 1) =>
    stub.admitMcp({ keyId: record.keyId, protocolRequests, session, rules }, { ...limits, mcp_protocol: mcpLimit });
  return { stub, record, admit };
}

describe("the MCP session registry", () => {
  it("caps a key's sessions: opening one more displaces the least recently used", async () => {
    const { admit } = await limiterOfNewKey();
    expect(await admit({ kind: "open", id: "s1" })).toEqual({ kind: "admitted", displaced: [] });
    expect(await admit({ kind: "open", id: "s2" })).toEqual({ kind: "admitted", displaced: [] });
    setClockAhead(10);
    expect(await admit({ kind: "use", id: "s1" })).toEqual({ kind: "admitted", displaced: [] });
    expect(await admit({ kind: "open", id: "s3" })).toEqual({ kind: "admitted", displaced: ["s2"] });
    expect(await admit({ kind: "use", id: "s2" })).toEqual({ kind: "unknown_session" });
  });

  it("refuses a session never opened, or closed; a closed one frees its place", async () => {
    const { stub, admit } = await limiterOfNewKey();
    expect(await admit({ kind: "use", id: "never" })).toEqual({ kind: "unknown_session" });
    await admit({ kind: "open", id: "a" });
    await admit({ kind: "open", id: "b" });
    await stub.closeMcpSession("a");
    expect(await admit({ kind: "use", id: "a" })).toEqual({ kind: "unknown_session" });
    expect(await admit({ kind: "open", id: "c" })).toEqual({ kind: "admitted", displaced: [] });
  });

  it("forgets a session idle past its idle time and the grace, unless its object says it is in use", async () => {
    const { stub, admit } = await limiterOfNewKey();
    await admit({ kind: "open", id: "idle" });
    await admit({ kind: "open", id: "busy" });
    setClockAhead(rules.idleMs);
    await stub.touchMcpSession("busy");
    setClockAhead(rules.idleMs + REGISTRY_GRACE_MS);
    expect(await admit({ kind: "use", id: "idle" })).toEqual({ kind: "unknown_session" });
    expect(await admit({ kind: "use", id: "busy" })).toEqual({ kind: "admitted", displaced: [] });
  });

  it("counts protocol requests as mcp_protocol: over the limit nothing opens, and a revoked key is refused", async () => {
    const { stub, record, admit } = await limiterOfNewKey({ limit: 2, windowSeconds: 60 });
    expect((await admit({ kind: "open", id: "one" }, 2)).kind).toBe("admitted");
    const refused = await admit({ kind: "open", id: "two" });
    expect(refused).toMatchObject({ kind: "rate_limited", decision: { allowed: false, limit: 2 } });
    expect(await admit({ kind: "use", id: "two" })).toEqual({ kind: "unknown_session" });
    // A tool call's request counts nothing here (its tool counts it): the session is still served.
    expect(await admit({ kind: "use", id: "one" }, 0)).toEqual({ kind: "admitted", displaced: [] });
    await stub.revoke(record.keyId);
    expect(await admit({ kind: "use", id: "one" }, 0)).toEqual({ kind: "revoked" });
  });
});

describe("a session's object", () => {
  it("opens nothing for an initialize that arrives after its session was displaced (a flood's race)", async () => {
    const { record } = await createKey();
    const sessionId = crypto.randomUUID();
    const session = objectNamed(env.MCP_SESSIONS, `${tenantName(record)}/${sessionId}`, record.jurisdiction);
    await session.close();
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "late", version: "1" } },
    };
    const request = new Request("https://mcp.example/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    const principal = { apiKey: record, scopes: [...MCP_SCOPES], allowanceCredits: 100 };
    const response = await session.serve(request, sessionId, principal, apiOperations(record.environment), initialize);
    expect([response.status, await response.json()]).toEqual([
      404,
      { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
    ]);
  });
});
