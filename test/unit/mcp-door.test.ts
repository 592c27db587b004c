import { describe, expect, it } from "vitest";
import { type AskOutcome, askToConfirm, readConfirmation } from "../../src/mcp/confirmation";
import { invalidParams } from "../../src/mcp/invalid-params";
import { isInitialize, protocolRequests } from "../../src/mcp/messages";
import { RecentRefusals } from "../../src/mcp/refusals";
import { idleStep } from "../../src/mcp/session-idle";
import { isLive, REGISTRY_GRACE_MS, sessionsToClose } from "../../src/rate-limit/mcp-sessions";

// The MCP door's pure decisions: what counts, which session closes, how an answer reads.

describe("what counts as mcp_protocol (protocolRequests)", () => {
  const request = (method: string, id: number | string = 1) => ({ jsonrpc: "2.0", id, method });

  it("counts every request but tools/call, one each, batches included", () => {
    expect(protocolRequests(request("initialize"))).toBe(1);
    expect(protocolRequests(request("tools/list"))).toBe(1);
    expect(protocolRequests(request("ping", "p"))).toBe(1);
    expect(protocolRequests(request("tools/call"))).toBe(0);
    expect(protocolRequests([request("ping"), request("tools/list", 2), request("tools/call", 3)])).toBe(2);
  });

  it("leaves out notifications and responses; counts a message that is no object", () => {
    expect(protocolRequests({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(0);
    expect(protocolRequests({ jsonrpc: "2.0", id: 4, result: { action: "accept" } })).toBe(0);
    expect(protocolRequests([null, 7, "x"])).toBe(3);
  });

  it("opens a session only for one initialize request", () => {
    expect(isInitialize(request("initialize"))).toBe(true);
    expect(isInitialize({ jsonrpc: "2.0", method: "initialize" })).toBe(false);
    expect(isInitialize([request("initialize")])).toBe(false);
    expect(isInitialize(request("ping"))).toBe(false);
  });
});

describe("which sessions close for one more (sessionsToClose) and which are live (isLive)", () => {
  const row = (n: number, usedAt: number) => ({ sessionId: `s${n}`, keyId: "k", usedAt });

  it("closes none below the cap, else the least recently used, as many as it takes", () => {
    expect(sessionsToClose([row(1, 5), row(2, 1)], 3)).toEqual([]);
    expect(sessionsToClose([row(1, 5), row(2, 1), row(3, 9)], 3)).toEqual(["s2"]);
    expect(sessionsToClose([row(1, 5), row(2, 1), row(3, 9)], 1)).toEqual(["s2", "s1", "s3"]);
  });

  it("keeps a row for the idle time and the grace, so the session's own object decides first", () => {
    const rules = { maxPerKey: 3, idleMs: 1000 };
    expect(isLive(row(1, 0), 1000 + REGISTRY_GRACE_MS - 1, rules)).toBe(true);
    expect(isLive(row(1, 0), 1000 + REGISTRY_GRACE_MS, rules)).toBe(false);
  });
});

describe("when a session's object closes it (idleStep)", () => {
  it("closes once idle and not answering; waits for the rest of the idle time otherwise", () => {
    expect(idleStep({ open: true, answering: 0, usedAt: 0 }, 1000, 1000)).toEqual({ kind: "close" });
    expect(idleStep({ open: true, answering: 0, usedAt: 400 }, 1000, 1000)).toEqual({
      kind: "wait",
      at: 1400,
      inUse: false,
    });
  });

  it("keeps a session answering (a tool call waiting on its person) and says it is in use", () => {
    expect(idleStep({ open: true, answering: 1, usedAt: 0 }, 5000, 1000)).toEqual({
      kind: "wait",
      at: 6000,
      inUse: true,
    });
  });

  it("does nothing for an object that holds no session (closed, or evicted since)", () => {
    expect(idleStep({ open: false, answering: 0, usedAt: 0 }, 5000, 1000)).toEqual({ kind: "none" });
  });
});

describe("how a confirmation's answer reads (readConfirmation, askToConfirm)", () => {
  it("reads accept only with confirm: true; confirm: false declines; decline and cancel as they are", () => {
    expect(readConfirmation({ answered: { action: "accept", content: { confirm: true } } })).toBe("accept");
    expect(readConfirmation({ answered: { action: "accept", content: { confirm: false } } })).toBe("decline");
    expect(readConfirmation({ answered: { action: "decline" } })).toBe("decline");
    expect(readConfirmation({ answered: { action: "cancel" } })).toBe("cancel");
  });

  it("reads another shape, or an error reply, as invalid; a timeout as a person who did not answer", () => {
    for (const answered of [
      { action: "accept", content: { confirm: "true" } },
      { action: "accept" },
      { action: "yes" },
      null,
      "accept",
    ]) {
      expect([answered, readConfirmation({ answered })]).toEqual([answered, "invalid"]);
    }
    expect(readConfirmation({ failed: "error" })).toBe("invalid");
    expect(readConfirmation({ failed: "timeout" })).toBe("cancel");
  });

  it("asks again once after an answer it cannot read, never a third time", async () => {
    const asking = (answers: AskOutcome[]) => {
      const asked: boolean[] = [];
      const ask = async (again: boolean) => {
        asked.push(again);
        return answers[Math.min(asked.length, answers.length) - 1]!;
      };
      return { asked, ask };
    };
    const readable = asking([
      { answered: { action: "yes" } },
      { answered: { action: "accept", content: { confirm: true } } },
    ]);
    expect(await askToConfirm(readable.ask)).toBe("accept");
    expect(readable.asked).toEqual([false, true]);
    const unreadable = asking([{ failed: "error" }]);
    expect(await askToConfirm(unreadable.ask)).toBe("invalid");
    expect(unreadable.asked).toEqual([false, true]);
  });
});

describe("params that do not fit their method (invalidParams)", () => {
  const call = (params: unknown) => ({ jsonrpc: "2.0" as const, id: 9, method: "tools/call", params }) as never;

  it("answers -32602 naming the field, without the validation dump", () => {
    for (const args of [null, [1], "x"]) {
      const refusal = invalidParams(call({ name: "get_usage", arguments: args }));
      expect(refusal).toMatchObject({ id: 9, error: { code: -32602, data: { field: "arguments" } } });
      expect(refusal?.error.message).toMatch(/^Invalid params: arguments: /);
      expect(refusal?.error.message).not.toMatch(/\n|"code"/);
    }
    expect(invalidParams(call({ arguments: {} }))?.error.data).toEqual({ field: "name" });
  });

  it("leaves alone requests that fit, methods it does not serve, notifications and responses", () => {
    expect(invalidParams(call({ name: "get_usage", arguments: {} }))).toBeUndefined();
    expect(invalidParams(call({ name: "get_usage" }))).toBeUndefined();
    expect(invalidParams({ jsonrpc: "2.0", id: 1, method: "resources/list", params: 3 } as never)).toBeUndefined();
    expect(invalidParams({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
  });
});

describe("an isolate's memory of refused keys (RecentRefusals)", () => {
  const usage = { limit: 300, windowSeconds: 60, used: 300, remaining: 0, resetSeconds: 10 };

  it("refuses a key until a second before its oldest counted request leaves, never after", () => {
    const refusals = new RecentRefusals();
    expect(refusals.refused("k", 0)).toBeUndefined();
    refusals.note("k", usage, 0);
    expect(refusals.refused("k", 0)).toMatchObject({ remaining: 0, resetSeconds: 10 });
    expect(refusals.refused("k", 4500)).toMatchObject({ resetSeconds: 6 });
    expect(refusals.refused("other", 4500)).toBeUndefined();
    expect(refusals.refused("k", 8999)).toMatchObject({ resetSeconds: 2 });
    // From here the limiter decides again: it may have room by the time the request reaches it.
    expect(refusals.refused("k", 9000)).toBeUndefined();
    expect(refusals.refused("k", 1000)).toBeUndefined();
  });
});
