import { afterEach, describe, expect, it, vi } from "vitest";
import { DeliberateFault, logError } from "../../src/log";

describe("logError", () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs an unexpected error at level error, by its type and message, without its stack", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    logError("items_record_failed", new TypeError("boom"), { batchId: "b1" });
    expect(warn).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(error.mock.calls[0]![0]))).toEqual({
      event: "items_record_failed",
      error: "TypeError",
      message: "boom",
      batchId: "b1",
    });
  });

  it("logs a deliberate fault as one warning, even where the caller logs errors", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    logError("item_attempt_failed", new DeliberateFault("sandbox: acted out"), { attempt: 2 });
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toEqual({
      event: "item_attempt_failed",
      error: "DeliberateFault",
      message: "sandbox: acted out",
      attempt: 2,
    });
  });
});
