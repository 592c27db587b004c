import type { Client } from "@modelcontextprotocol/client";
import type { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../blackbox-helpers";
import { ADA, call, clientFor, errorOf, GRACE, holdings, restCall } from "./helpers";
import { ACCEPTED, modernClient, REVISION, raw, rawCall } from "./modern";
import type { Customer, McpServerView } from "./server";
import { sharedMcpServer } from "./shared-server";

// The 2026-07-28 revision at /mcp on `wrangler dev`: the SDK's v2 client and raw requests of the revision,
// beside 2025 clients (SDK 1.x) on the same URL; spending confirmed by MRTR; an agent's allowance; tasks.
let running: McpServerView;
const clients: { close(): Promise<void> }[] = [];
const v1Clients: ClientV1[] = [];

beforeAll(() => {
  running = sharedMcpServer();
});
afterAll(async () => {
  await Promise.allSettled([...clients, ...v1Clients].map((client) => client.close()));
});

async function modern(...args: Parameters<typeof modernClient> extends [unknown, ...infer Rest] ? Rest : never) {
  const client = await modernClient(running, ...args);
  clients.push(client);
  return client;
}

const batchesOf = async (customer: Customer) =>
  ((await restCall(running, customer, "/person/contact-info")) as { batches: { id: string }[] }).batches;

const resultOf = (result: Awaited<ReturnType<Client["callTool"]>>) => result as CallToolResult;

describe("the revision, stateless, beside 2025 clients", () => {
  it("discover → list → call with the v2 client; no session is opened", async () => {
    const client = await modern("modern");
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toContain(REVISION);
    expect(discovered.capabilities).toMatchObject({ tools: {}, extensions: { "io.modelcontextprotocol/tasks": {} } });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(10);
    const usage = resultOf(await client.callTool({ name: "get_usage", arguments: {} }));
    expect(usage.structuredContent).toMatchObject({ days: expect.any(Array) });
  });

  it("answers resultType and the list's ttlMs and cacheScope; no Mcp-Session-Id", async () => {
    const listed = await raw(running, "modern", "tools/list", {});
    expect([listed.status, listed.sessionId]).toEqual([200, null]);
    expect(listed.message.result).toMatchObject({
      resultType: "complete",
      ttlMs: expect.any(Number),
      cacheScope: "public",
    });
    const discovered = await raw(running, "modern", "server/discover", {});
    expect(discovered.message.result).toMatchObject({ resultType: "complete", supportedVersions: [REVISION] });
  });

  it("refuses with 400 a request whose Mcp-Method or Mcp-Name disagrees with its body", async () => {
    const body = (method: string, params: object) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": REVISION,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      });
    const post = (headers: Record<string, string>, payload: string) =>
      fetch(`${running.server.url}/mcp`, {
        method: "POST",
        headers: {
          "x-api-key": running.keys.modern,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": REVISION,
          ...headers,
        },
        body: payload,
      });
    const method = await post({ "mcp-method": "tools/call" }, body("tools/list", {}));
    const name = await post(
      { "mcp-method": "tools/call", "mcp-name": "get_usage" },
      body("tools/call", { name: "list_contact_info_batches", arguments: {} }),
    );
    for (const response of [method, name]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32020 } });
    }
  });

  it("an SDK 1.x client on the same URL still initializes and calls", async () => {
    const client = await clientFor(running, v1Clients, "modern");
    expect((await client.listTools()).tools).toHaveLength(10);
  });
});

describe("spending confirmed by MRTR", () => {
  it("accept: one question naming the maximum in digits; the batch is capped at it", async () => {
    const asked: string[] = [];
    const client = await modern("modern", "accept", asked);
    const started = resultOf(
      await client.callTool({ name: "start_contact_info_batch", arguments: { items: [ADA, GRACE] } }),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/at most 22 credits/);
    const { batchId } = started.structuredContent as { batchId: string };
    expect(await restCall(running, "modern", `/person/contact-info/${batchId}`)).toMatchObject({ maxCredits: 22 });
  });

  it("decline: confirmation_declined, nothing created", async () => {
    const client = await modern("modern_declines", "decline");
    const declined = resultOf(await client.callTool({ name: "enrich_contact_info", arguments: { items: [ADA] } }));
    expect(errorOf(declined)).toMatchObject({ code: "confirmation_declined" });
    expect(await batchesOf("modern_declines")).toEqual([]);
  });

  it("input_required holds one elicitation/create and a requestState; a client without elicitation gets confirmation_required", async () => {
    const asked = await rawCall(
      running,
      "stranger",
      "start_contact_info_batch",
      { items: [ADA] },
      { elicitation: true },
    );
    expect(asked.message.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    const requests = Object.values(asked.message.result?.inputRequests ?? {});
    expect(requests).toEqual([expect.objectContaining({ method: "elicitation/create" })]);
    expect(JSON.stringify(requests[0])).toContain("at most 11 credits");
    const cannot = await rawCall(running, "stranger", "start_contact_info_batch", { items: [ADA] });
    expect(JSON.parse(cannot.message.result?.content[0].text)).toMatchObject({
      code: "confirmation_required",
      maxCredits: 11,
    });
  });

  it("an altered state, or another customer's, creates nothing", async () => {
    const args = { items: [ADA] };
    const asked = await rawCall(running, "replayer", "start_contact_info_batch", args, { elicitation: true });
    const state = String(asked.message.result?.requestState);
    const flipped = `${state.slice(0, 10)}${state[10] === "A" ? "B" : "A"}${state.slice(11)}`;
    const altered = await rawCall(running, "replayer", "start_contact_info_batch", args, {
      elicitation: true,
      inputResponses: ACCEPTED,
      requestState: flipped,
    });
    expect(altered.message.error).toMatchObject({ code: -32602 });
    const stolen = await rawCall(running, "stranger", "start_contact_info_batch", args, {
      elicitation: true,
      inputResponses: ACCEPTED,
      requestState: state,
    });
    expect(stolen.message.error).toMatchObject({ code: -32602 });
    expect(await batchesOf("replayer")).toEqual([]);
    expect(await batchesOf("stranger")).toEqual([]);
  });

  it("replay: the same accepted state twice makes one batch", async () => {
    const args = { items: [GRACE] };
    const asked = await rawCall(running, "replayer", "start_contact_info_batch", args, { elicitation: true });
    const again = {
      elicitation: true,
      inputResponses: ACCEPTED,
      requestState: String(asked.message.result?.requestState),
    };
    const first = await rawCall(running, "replayer", "start_contact_info_batch", args, again);
    const second = await rawCall(running, "replayer", "start_contact_info_batch", args, again);
    const idOf = (answer: typeof first) => answer.message.result?.structuredContent?.batchId;
    expect(idOf(first)).toEqual(expect.any(String));
    expect(idOf(second)).toBe(idOf(first));
    expect(await batchesOf("replayer")).toHaveLength(1);
  });

  it("an answer that does not fit the form is asked again, never internal_error", async () => {
    const args = { items: [ADA], fields: ["email"] };
    const asked = await rawCall(running, "stranger", "enrich_contact_info", args, { elicitation: true });
    const wrong = await rawCall(running, "stranger", "enrich_contact_info", args, {
      elicitation: true,
      inputResponses: { confirm_spending: { action: "accept", content: { confirm: "yes" } } },
      requestState: String(asked.message.result?.requestState),
    });
    expect(wrong.message.result).toMatchObject({ resultType: "input_required" });
    expect(JSON.stringify(wrong.message.result?.inputRequests)).toContain("could not be read");
  });
});

describe("an agent's own maxCredits is not a person's confirmation", () => {
  it("within the allowance (100 by default) it runs unasked, on both revisions", async () => {
    const asked: string[] = [];
    const client = await modern("over_allowance", "accept", asked);
    const ran = resultOf(
      await client.callTool({ name: "start_contact_info_batch", arguments: { items: [ADA], maxCredits: 100 } }),
    );
    expect(ran.isError).toBeFalsy();
    const v1 = await clientFor(running, v1Clients, "over_allowance", "accept", asked);
    expect((await call(v1, "start_contact_info_batch", { items: [GRACE], maxCredits: 50 })).isError).toBeFalsy();
    expect(asked).toEqual([]);
  });

  it("above it, the person is asked (MRTR, or 2025 elicitation) naming the maximum", async () => {
    const asked: string[] = [];
    const client = await modern("over_allowance", "accept", asked);
    const ran = resultOf(
      await client.callTool({ name: "start_contact_info_batch", arguments: { items: [ADA], maxCredits: 1_000_000 } }),
    );
    expect(ran.isError).toBeFalsy();
    const v1 = await clientFor(running, v1Clients, "over_allowance", "accept", asked);
    expect((await call(v1, "start_contact_info_batch", { items: [GRACE], maxCredits: 101 })).isError).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain("at most 1000000 credits");
    expect(asked[1]).toContain("at most 101 credits");
  });

  it("a client that cannot ask gets confirmation_required naming the maximum and how to raise the allowance", async () => {
    const before = await holdings(await clientFor(running, v1Clients, "zero_allowance"));
    const v1 = await clientFor(running, v1Clients, "zero_allowance");
    const refused = errorOf(await call(v1, "start_contact_info_batch", { items: [ADA], maxCredits: 5 }));
    expect(refused).toMatchObject({ code: "confirmation_required", maxCredits: 5, allowanceCredits: 0 });
    expect(refused.detail).toContain("set-mcp-allowance");
    const v2 = await modern("zero_allowance");
    const alsoRefused = errorOf(
      resultOf(await v2.callTool({ name: "enrich_contact_info", arguments: { items: [ADA], maxCredits: 5 } })),
    );
    expect(alsoRefused).toMatchObject({ code: "confirmation_required", maxCredits: 5 });
    expect(await holdings(v1)).toEqual(before);
  });
});

describe("long batches as tasks (io.modelcontextprotocol/tasks)", () => {
  const start = (items: object[]) =>
    rawCall(running, "tasker", "start_contact_info_batch", { items, maxCredits: 50 }, { tasks: true });

  it("answers resultType task; tasks/get follows it to completed with the batch id and counts", async () => {
    const started = await start([ADA, GRACE]);
    expect(started.message.result).toMatchObject({ resultType: "task", status: "working", taskId: expect.any(String) });
    const taskId = String(started.message.result?.taskId);
    const done = await until(
      async () => (await raw(running, "tasker", "tasks/get", { taskId }, { tasks: true })).message.result,
      { what: "the task completed", done: (task) => task?.status === "completed", timeoutMs: 60_000 },
    );
    expect(done).toMatchObject({
      resultType: "complete",
      taskId,
      result: { structuredContent: { batchId: taskId, status: "completed", totalItems: 2, completedItems: 2 } },
    });
  });

  it("tasks/cancel cancels the batch; another customer's taskId is an error that shows nothing", async () => {
    const started = await start([{ fullName: "Slow Person", companyDomain: "slow.test" }]);
    const taskId = String(started.message.result?.taskId);
    const foreign = await raw(running, "stranger", "tasks/get", { taskId }, { tasks: true });
    expect(foreign.message.error).toMatchObject({ code: -32602, message: "No task with this id exists." });
    expect(await raw(running, "stranger", "tasks/cancel", { taskId }, { tasks: true })).toMatchObject({
      message: { error: { code: -32602 } },
    });
    const cancelled = await raw(running, "tasker", "tasks/cancel", { taskId }, { tasks: true });
    expect(cancelled.message.result).toMatchObject({ resultType: "complete" });
    expect((await raw(running, "tasker", "tasks/get", { taskId }, { tasks: true })).message.result).toMatchObject({
      status: "cancelled",
    });
    expect(await restCall(running, "tasker", `/person/contact-info/${taskId}`)).toMatchObject({
      code: "batch_deleted",
    });
  });

  it("a client without the extension gets today's answer", async () => {
    const plain = await rawCall(running, "tasker", "start_contact_info_batch", { items: [ADA], maxCredits: 50 });
    expect(plain.message.result).toMatchObject({
      resultType: "complete",
      structuredContent: { batchId: expect.any(String) },
    });
  });
});
