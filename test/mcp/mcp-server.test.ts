import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../blackbox-helpers";
import { ADA, type Answer, call, clientFor, errorOf, GRACE, holdings, INITIALIZE, restCall } from "./helpers";
import { type Customer, connect, type McpServerView } from "./server";
import { sharedMcpServer } from "./shared-server";

// The MCP server at /mcp, as the official SDK client (Streamable HTTP) uses it against `wrangler dev`.
let running: McpServerView;
const clients: Client[] = [];

beforeAll(() => {
  running = sharedMcpServer();
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
});

const clientOf = (customer: Customer, answer?: Answer, asked: string[] = []) =>
  clientFor(running, clients, customer, answer, asked);
const rest = (customer: Customer, path: string, init: RequestInit = {}) => restCall(running, customer, path, init);

describe("tools/list", () => {
  it("lists the ten tools, each with an object input and output schema and its annotations", async () => {
    const { tools } = await (await clientOf("reader")).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "estimate_contact_info",
      "enrich_contact_info",
      "start_contact_info_batch",
      "get_contact_info_batch",
      "list_contact_info_batches",
      "get_usage",
      "get_rate_limits",
      "erase_person",
      "suppress_person",
      "report_feedback",
    ]);
    for (const tool of tools) {
      expect([tool.name, tool.inputSchema.type, tool.outputSchema?.type]).toEqual([tool.name, "object", "object"]);
    }
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    for (const name of [
      "estimate_contact_info",
      "get_contact_info_batch",
      "list_contact_info_batches",
      "get_usage",
      "get_rate_limits",
    ]) {
      expect(hints[name]).toMatchObject({ readOnlyHint: true });
    }
    expect(hints.erase_person).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(hints.enrich_contact_info).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(tools.find((tool) => tool.name === "enrich_contact_info")?.inputSchema.properties).toMatchObject({
      items: { maxItems: 100 },
    });
  });
});

describe("auth", () => {
  it("refuses initialize with HTTP 401 without a key, or with a bad one", async () => {
    for (const key of [undefined, "ck_test_00000000000000000000000000000000", "nonsense"]) {
      const response = await fetch(`${running.server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(key ? { "x-api-key": key } : {}),
        },
        body: JSON.stringify(INITIALIZE),
      });
      expect([key, response.status]).toEqual([key, 401]);
      expect(await response.json()).toMatchObject({ code: key ? "invalid_api_key" : "missing_api_key" });
    }
    await expect(connect(running.server, {})).rejects.toThrow(/401/);
  });

  it("refuses a browser request from a page that is not on loopback (DNS rebinding), key or not", async () => {
    const post = (origin: string) =>
      fetch(`${running.server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          origin,
          "x-api-key": running.keys.reader,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
    expect((await post("http://evil.example:8787")).status).toBe(403);
    expect((await post("http://localhost:6274")).status).not.toBe(403);
  });

  it("takes the key as Authorization: Bearer too", async () => {
    const client = await connect(running.server, { headers: { authorization: `Bearer ${running.keys.reader}` } });
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(10);
  });
});

describe("the read tools answer what their REST operations answer", () => {
  it("estimate_contact_info: the REST estimate's fields, creating nothing", async () => {
    const client = await clientOf("reader");
    const body = { items: [ADA, GRACE, ADA, { firstName: "Only" }], fields: ["email", "phone"] };
    const result = await call(client, "estimate_contact_info", body);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(
      await rest("reader", "/person/contact-info/estimate", { method: "POST", body: JSON.stringify(body) }),
    );
    expect(result.structuredContent).toMatchObject({
      itemCount: 4,
      invalidItems: 1,
      duplicateItems: 1,
      maxCredits: 22,
    });
  });

  it("get_contact_info_batch and list_contact_info_batches: the status route's page and the list", async () => {
    const client = await clientOf("reader");
    const started = await call(client, "start_contact_info_batch", {
      items: [ADA, GRACE],
      fields: ["email"],
      maxCredits: 5,
    });
    const { batchId } = started.structuredContent as { batchId: string };
    await until(async () => (await call(client, "get_contact_info_batch", { batchId })).structuredContent, {
      what: "the batch completed",
      done: (page) => (page as { status: string }).status === "completed",
      timeoutMs: 60_000,
    });
    const page = await call(client, "get_contact_info_batch", { batchId, limit: 1 });
    expect(page.structuredContent).toEqual(await rest("reader", `/person/contact-info/${batchId}?limit=1`));
    const list = await call(client, "list_contact_info_batches", { limit: 10 });
    expect(list.structuredContent).toEqual(await rest("reader", "/person/contact-info?limit=10"));
    expect(errorOf(await call(client, "get_contact_info_batch", { batchId, status: "lost" }))).toMatchObject({
      code: "invalid_query",
    });
  });

  it("get_usage and get_rate_limits: the account's usage and limits, the limits wrapped as {limits}", async () => {
    const client = await clientOf("reader");
    const usage = await call(client, "get_usage", { from: "2026-01-01", to: "2026-01-02" });
    expect(usage.structuredContent).toEqual(await rest("reader", "/me/usage?from=2026-01-01&to=2026-01-02"));
    const { limits } = (await call(client, "get_rate_limits")).structuredContent as {
      limits: { endpointType: string }[];
    };
    expect(limits.map((limit) => limit.endpointType)).toEqual([
      "contact_info_request",
      "contact_info_status",
      "rate_limits",
      "mcp_protocol",
    ]);
  });

  it("erase_person and suppress_person: the erasure receipt and the suppression result", async () => {
    const client = await clientOf("reader");
    const receipt = await call(client, "erase_person", { email: "someone@erase.example", suppress: false });
    expect(receipt.structuredContent).toMatchObject({ id: expect.any(String), items: 0, batches: 0 });
    const suppressed = await call(client, "suppress_person", { items: [{ email: "nobody@suppress.example" }] });
    expect(suppressed.structuredContent).toMatchObject({ keys: [[expect.any(String)]], added: 1 });
    expect(errorOf(await call(client, "erase_person", {}))).toMatchObject({ code: "invalid_request" });
  });

  it("report_feedback: the REST route's problems, through the same operation", async () => {
    const client = await clientOf("reader");
    const missing = { batchId: crypto.randomUUID(), index: 0, kind: "email_bounced", value: "a@b.example" };
    expect(errorOf(await call(client, "report_feedback", missing))).toMatchObject({ code: "not_found" });
    expect(errorOf(await call(client, "report_feedback", { ...missing, kind: "x" }))).toMatchObject({
      code: "invalid_request",
    });
  });
});

describe("a person confirms spending; the server enforces it", () => {
  it("accepted: asks once with the estimate's maximum, runs capped at it, reports progress", async () => {
    const asked: string[] = [];
    const client = await clientOf("accepts", "accept", asked);
    const progress: Progress[] = [];
    const result = (await client.callTool(
      {
        name: "enrich_contact_info",
        arguments: { items: [ADA, GRACE, { fullName: "No Body", companyDomain: "notfound.test" }] },
      },
      undefined,
      { onprogress: (update) => progress.push(update) },
    )) as CallToolResult;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("at most 33 credits");
    expect(result.structuredContent).toMatchObject({ status: "completed", maxCredits: 33, totalItems: 3 });
    const { creditsCharged, items } = result.structuredContent as {
      creditsCharged: number;
      items: { outcome: string }[];
    };
    expect(creditsCharged).toBeGreaterThan(0);
    expect(creditsCharged).toBeLessThanOrEqual(33);
    expect(items.map((item) => item.outcome)).toEqual(["found", "found", "not_found"]);
    expect(progress.at(-1)).toMatchObject({ progress: 3, total: 3 });
    expect(await holdings(client)).toEqual({ batches: 1, credits: creditsCharged });
  });

  it("accepts: under a monthly budget, the question names what remains of it", async () => {
    const budget = await rest("budgeted", "/me/budget", {
      method: "PUT",
      body: JSON.stringify({ monthlyCredits: 500 }),
    });
    expect(budget).toMatchObject({ monthlyCredits: 500, remaining: 500 });
    const asked: string[] = [];
    const client = await clientOf("budgeted", "accept", asked);
    const result = await call(client, "enrich_contact_info", { items: [ADA], fields: ["email"] });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([expect.stringContaining("500 credits remain of this month's budget")]);
  });

  it.each([
    ["declines", "decline"],
    ["cancels", "cancel"],
  ] as const)("%s: a tool error, nothing created, nothing charged", async (customer, answer) => {
    const asked: string[] = [];
    const client = await clientOf(customer, answer, asked);
    for (const name of ["enrich_contact_info", "start_contact_info_batch"]) {
      expect(errorOf(await call(client, name, { items: [ADA] }))).toMatchObject({ code: "confirmation_declined" });
    }
    expect(asked).toHaveLength(2);
    expect(await holdings(client)).toEqual({ batches: 0, credits: 0 });
  });

  it("a client that cannot be asked: confirmation_required with the maximum, nothing created", async () => {
    const client = await clientOf("cannot_ask");
    for (const name of ["enrich_contact_info", "start_contact_info_batch"]) {
      const error = errorOf(await call(client, name, { items: [ADA], fields: ["email"] }));
      expect(error).toMatchObject({ code: "confirmation_required", maxCredits: 1, itemCount: 1 });
      expect(error.detail).toContain("maxCredits");
    }
    expect(await holdings(client)).toEqual({ batches: 0, credits: 0 });
  });

  it("maxCredits given: nothing asked, the batch capped exactly as on REST", async () => {
    const asked: string[] = [];
    const client = await clientOf("capped", "accept", asked);
    const result = await call(client, "enrich_contact_info", { items: [ADA, GRACE], fields: ["email"], maxCredits: 1 });
    expect(asked).toEqual([]);
    expect(result.structuredContent).toMatchObject({ status: "completed", maxCredits: 1, creditsCharged: 1 });
    const { items } = result.structuredContent as { items: { error: { code: string } | null }[] };
    expect(items.map((item) => item.error?.code ?? null).sort()).toEqual(["budget_exhausted", null]);
  });
});

describe("the REST rules hold", () => {
  it("validates as REST does: too many items and a bad field are the REST problem codes", async () => {
    const client = await clientOf("capped", "accept");
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ email: `p${i}@many.example` }));
    expect(errorOf(await call(client, "enrich_contact_info", { items: tooMany, maxCredits: 1 }))).toMatchObject({
      code: "too_many_items",
    });
    expect(errorOf(await call(client, "estimate_contact_info", { items: [ADA], fields: ["fax"] }))).toMatchObject({
      code: "invalid_request",
    });
  });

  it("counts a call as its REST operation's endpoint type; a limited call is a tool error with retryAfterSeconds", async () => {
    const client = await clientOf("slow");
    expect((await call(client, "get_rate_limits")).isError).toBeFalsy();
    const limited = errorOf(await call(client, "get_usage"));
    expect(limited).toMatchObject({
      code: "rate_limited",
      endpointType: "rate_limits",
      retryAfterSeconds: expect.any(Number),
    });
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    // Another endpoint type has its own budget: the estimate (contact_info_request) still runs, once.
    expect((await call(client, "estimate_contact_info", { items: [ADA] })).isError).toBeFalsy();
    expect(errorOf(await call(client, "estimate_contact_info", { items: [ADA] }))).toMatchObject({
      code: "rate_limited",
      endpointType: "contact_info_request",
    });
  });

  it("isolates tenants: another customer's batch is not_found, and its session is not found", async () => {
    const reader = await clientOf("reader");
    const started = await call(reader, "start_contact_info_batch", { items: [ADA], maxCredits: 0 });
    const { batchId } = started.structuredContent as { batchId: string };
    const other = await clientOf("other");
    expect(errorOf(await call(other, "get_contact_info_batch", { batchId }))).toMatchObject({ code: "not_found" });
    const sessionId = (reader.transport as { sessionId?: string }).sessionId ?? "";
    const response = await fetch(`${running.server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": running.keys.other,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect([sessionId.length, response.status]).toEqual([36, 404]);
  });

  it("logs nothing personal: no name, email or URL given to a tool reaches the server's output", () => {
    const output = running.server.output();
    expect(output).toContain("mcp_tool_call");
    for (const personal of ["Lovelace", "grace-hopper", "someone@erase.example", "nobody@suppress.example"]) {
      expect(output).not.toContain(personal);
    }
  });
});

describe("a client's mistake is a client error", () => {
  const wrongAnswers: [string, Parameters<typeof connect>[1]][] = [
    ['confirm: "true"', { answer: () => ({ action: "accept", content: { confirm: "true" } }) }],
    ['action: "yes"', { raw: () => ({ action: "yes" }) }],
    [
      "an error reply",
      {
        answer: () => {
          throw new Error("this client cannot show forms");
        },
      },
    ],
  ];

  it.each(wrongAnswers)(
    "a confirmation answered %s: asked again once, then invalid_confirmation; nothing created",
    async (_, options) => {
      let asked = 0;
      const counted =
        <Args extends unknown[], Result>(answer: (...args: Args) => Result) =>
        (...args: Args) => {
          asked++;
          return answer(...args);
        };
      const counting = {
        ...(options.answer && { answer: counted(options.answer) }),
        ...(options.raw && { raw: counted(options.raw) }),
      };
      const client = await connect(running.server, { ...counting, headers: { "x-api-key": running.keys.mistaken } });
      clients.push(client);
      const error = errorOf(await call(client, "start_contact_info_batch", { items: [ADA] }));
      expect([asked, error.code]).toEqual([2, "invalid_confirmation"]);
      expect(await holdings(client)).toEqual({ batches: 0, credits: 0 });
      expect(running.server.output()).not.toMatch(/mcp_tool_failed|mcp_refusal_failed|mcp_door_failed/);
    },
  );

  it.each([
    ["null", null],
    ["an array", [1, 2]],
  ])("tools/call with arguments %s: -32602 naming arguments, no validation dump", async (_, args) => {
    const client = await clientOf("mistaken");
    const refused = client.request(
      { method: "tools/call", params: { name: "get_usage", arguments: args } } as never,
      CallToolResultSchema,
    );
    await expect(refused).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("arguments") });
    const message = await refused.catch((error: Error) => error.message);
    expect(message).not.toMatch(/"code"|invalid_type|\n/);
  });
});
