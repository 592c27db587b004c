import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../blackbox-helpers";
import { INITIALIZE } from "./helpers";
import { type Customer, connect, type McpTestServer, startMcpTestServer } from "./server";

// The door at /mcp cannot be flooded: its requests count against the key's limits, and a key's open
// sessions are capped and expire when idle. A server of its own, with a small cap and a short idle time.
const MAX_SESSIONS = 3;
const IDLE_SECONDS = 8;
let running: McpTestServer;
const clients: Client[] = [];

beforeAll(async () => {
  running = await startMcpTestServer({
    MCP_MAX_SESSIONS_PER_KEY: String(MAX_SESSIONS),
    MCP_SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
  });
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await running?.server.stop();
});

const open = async (customer: Customer) => {
  const client = await connect(running.server, { headers: { "x-api-key": running.keys[customer] } });
  clients.push(client);
  return client;
};

const initialize = (customer: Customer) =>
  fetch(`${running.server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-api-key": running.keys[customer],
    },
    body: JSON.stringify(INITIALIZE),
  });

describe("MCP requests count against the key's limits", () => {
  it("an initialize burst from one key: its limit's worth served, the rest 429 with Retry-After, no 5xx", async () => {
    // flood's key allows 20 protocol requests an hour (test/mcp/server.ts).
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const response = await initialize("flood");
        return {
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          body: await response.text(),
        };
      }),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    for (const limited of answers.filter((answer) => answer.status === 429)) {
      expect(Number(limited.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(limited.body)).toMatchObject({ code: "rate_limited", endpointType: "mcp_protocol" });
    }
  });

  it("tools/list and ping count as mcp_protocol; GET /me/rate-limits shows it at its default, 300 a minute", async () => {
    const client = await open("defaults");
    await client.listTools();
    await client.ping();
    const response = await fetch(`${running.server.url}/v2/test/me/rate-limits`, {
      headers: { "x-api-key": running.keys.defaults },
    });
    const limits = (await response.json()) as { endpointType: string; used: number }[];
    expect(limits.find((limit) => limit.endpointType === "mcp_protocol")).toMatchObject({
      tier: "MCP",
      limit: 300,
      windowSeconds: 60,
      used: 3,
      operations: [expect.stringContaining("POST /mcp")],
    });
  });
});

describe("a key's open sessions are capped, and idle ones expire", () => {
  it(`opening one more than ${MAX_SESSIONS} closes the least recently used; the others keep working`, async () => {
    const [first, ...others] = [await open("reader"), await open("reader"), await open("reader")];
    await first?.listTools();
    // first is now the most recently used: the second is the one displaced.
    const [second, third] = others;
    const fourth = await open("reader");
    await expect(second?.listTools()).rejects.toThrow(/404|Session not found/);
    for (const client of [first, third, fourth]) expect((await client?.listTools())?.tools).toHaveLength(10);
  });

  it(`a session without a request for ${IDLE_SECONDS} s is closed, and says so; its next request is a 404`, async () => {
    const client = await open("other");
    const sessionId = (client.transport as { sessionId?: string }).sessionId ?? "";
    const startedAt = Date.now();
    // Read from the server's log, since any request of the session's own would keep it in use.
    await until(() => running.server.output(), {
      what: "the idle session closed",
      done: (output) => output.includes(`"event":"mcp_session_closed","sessionId":"${sessionId}","reason":"idle"`),
      timeoutMs: 60_000,
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000);
    await expect(client.ping()).rejects.toThrow(/404|Session not found/);
  });
});

describe("the body limit", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${running.server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": running.keys.reader,
        ...headers,
      },
      body,
      duplex: "half",
    } as RequestInit);

  it("a 12 MB POST is a clean 413 problem, declared or streamed without a length; nothing names a file", async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(12_000_000)}"}}`;
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode("x".repeat(1_000_000));
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'));
        for (let i = 0; i < 12; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    for (const response of [await post(big), await post(streamed)]) {
      const text = await response.text();
      expect([response.status, response.headers.get("content-type")]).toEqual([413, "application/problem+json"]);
      expect(JSON.parse(text)).toMatchObject({ code: "payload_too_large" });
      expect(text).not.toMatch(/\.(ts|js):\d|at \S+ \(|node_modules|\/src\//);
    }
  });
});
