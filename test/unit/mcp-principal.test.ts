import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../../src/keys/api-key";
import { cancelledTask, detailedTask, TASK_POLL_MS, taskOfBatch } from "../../src/mcp/batch-task";
import { callTool } from "../../src/mcp/call-tool";
import { fromWire, keyPrincipal, toWire } from "../../src/mcp/principal";
import { erasePersonTool } from "../../src/mcp/read-tools";
import { startBatchTool } from "../../src/mcp/spend-tools";
import { apiOperations } from "../../src/routes/api-routes";

const KEY: ApiKeyRecord = {
  keyId: "key_1",
  customerId: "cus_1",
  environment: "test",
  name: "a key",
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("keyPrincipal", () => {
  it("gives an API key every scope and the deployment's allowance, or the key's own", () => {
    const principal = keyPrincipal(KEY, { mcpAllowanceCredits: 100 });
    expect([...principal.scopes]).toEqual(["read", "spend", "erase"]);
    expect(principal.allowanceCredits).toBe(100);
    expect(keyPrincipal({ ...KEY, mcpAllowanceCredits: 0 }, { mcpAllowanceCredits: 100 }).allowanceCredits).toBe(0);
  });

  it("crosses RPC and back unchanged, and refuses a wire form that is not one", () => {
    const principal = keyPrincipal(KEY, { mcpAllowanceCredits: 7 });
    expect(fromWire(toWire(principal))).toEqual(principal);
    expect(() => fromWire({ ...toWire(principal), scopes: ["admin"] })).toThrow();
  });
});

describe("scopes", () => {
  it("refuses a tool outside the principal's scopes with insufficient_scope, before anything runs", async () => {
    const principal = { ...keyPrincipal(KEY, { mcpAllowanceCredits: 100 }), scopes: new Set(["read" as const]) };
    const unused = () => {
      throw new Error("nothing may run");
    };
    const counted = apiOperations(KEY.environment);
    const context = { origin: "https://x.test", principal, tasks: false, counted, progress: unused, confirm: unused };
    const caller = { env, apiKey: KEY, environment: KEY.environment };
    for (const [tool, scope] of [
      [startBatchTool, "spend"],
      [erasePersonTool, "erase"],
    ] as const) {
      const result = await callTool(tool, caller, {}, context);
      expect(result).toMatchObject({ isError: true });
      const text = "content" in result ? result.content[0]?.text : "";
      expect(JSON.parse(text ?? "null")).toMatchObject({ code: "insufficient_scope", scope });
    }
  });
});

describe("a batch as a task", () => {
  const batch = {
    status: "processing" as const,
    totalItems: 3,
    completedItems: 1,
    failedItems: 1,
    creditsCharged: 11,
    createdAt: "2026-11-29T10:00:00.000Z",
    completedAt: null,
  };

  it("is working until every item finished, then completed with the batch id and counts", () => {
    expect(detailedTask("b1", batch)).toMatchObject({ taskId: "b1", status: "working", pollIntervalMs: TASK_POLL_MS });
    expect(detailedTask("b1", batch)).not.toHaveProperty("result");
    const done = detailedTask("b1", {
      ...batch,
      status: "completed",
      completedItems: 2,
      completedAt: "2026-11-29T10:01:00.000Z",
    });
    expect(done).toMatchObject({
      status: "completed",
      lastUpdatedAt: "2026-11-29T10:01:00.000Z",
      result: {
        structuredContent: { batchId: "b1", totalItems: 3, completedItems: 2, failedItems: 1, creditsCharged: 11 },
      },
    });
  });

  it("answers the start as resultType task without a result; a cancelled batch is a cancelled task", () => {
    const answer = taskOfBatch({ ...batch, status: "pending" }, "b2").result;
    expect(answer).toMatchObject({ resultType: "task", taskId: "b2", status: "working", ttlMs: null });
    expect(answer).not.toHaveProperty("result");
    expect(cancelledTask("b2", "2026-11-29T11:00:00.000Z")).toMatchObject({
      status: "cancelled",
      lastUpdatedAt: "2026-11-29T11:00:00.000Z",
    });
  });
});
