import { afterEach, describe, expect, it, vi } from "vitest";
import { DeliberateFault, logError } from "../../src/base/log";
import { captureLogs } from "../log-capture";

describe("logError", () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs an unexpected error at level error, by its type and message, without its stack", () => {
    const logs = captureLogs();
    logError("items_record_failed", new TypeError("boom"), { batchId: "b1" });
    expect(logs.lines("warn")).toEqual([]);
    expect(logs.lines("error")).toHaveLength(1);
    expect(JSON.parse(logs.lines("error")[0]!)).toEqual({
      event: "items_record_failed",
      error: "TypeError",
      message: "boom",
      batchId: "b1",
    });
  });

  it("logs a deliberate fault as one warning, even where the caller logs errors", () => {
    const logs = captureLogs();
    logError("item_attempt_failed", new DeliberateFault("sandbox: acted out"), { attempt: 2 });
    expect(logs.lines("error")).toEqual([]);
    expect(logs.lines("warn")).toHaveLength(1);
    expect(JSON.parse(logs.lines("warn")[0]!)).toEqual({
      event: "item_attempt_failed",
      error: "DeliberateFault",
      message: "sandbox: acted out",
      attempt: 2,
    });
  });
});
