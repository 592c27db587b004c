import { describe, expect, it } from "vitest";
import { decide, type WindowLog, windowUsage } from "../../src/rate-limit/sliding-window";
import {
  decideRenewal,
  decideStream,
  LEASE_EXPIRES_MS,
  MAX_STREAMS_PER_BATCH,
  MAX_STREAMS_PER_CUSTOMER,
  STREAM_RETRY_AFTER_SECONDS,
  type StreamLease,
} from "../../src/rate-limit/stream-leases";

const lease = (batchId: string, n: number, renewedAt = 0): StreamLease => ({
  leaseId: `l${n}`,
  keyId: "key_a",
  batchId,
  renewedAt,
});
const leases = (batchIds: string[]) => batchIds.map((batchId, n) => lease(batchId, n));

describe("opening one more stream (decideStream)", () => {
  it("grants while both caps have room", () => {
    expect(decideStream([], "b1")).toEqual({ kind: "granted" });
    expect(decideStream(leases(Array(MAX_STREAMS_PER_BATCH - 1).fill("b1")), "b1")).toEqual({ kind: "granted" });
  });

  it("refuses over the batch's cap, with the documented Retry-After, and grants another batch", () => {
    const full = leases(Array(MAX_STREAMS_PER_BATCH).fill("b1"));
    expect(decideStream(full, "b1")).toEqual({
      kind: "refused",
      scope: "batch",
      max: MAX_STREAMS_PER_BATCH,
      retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
    });
    expect(decideStream(full, "b2").kind).toBe("granted");
  });

  it("refuses over the customer's cap whatever the batch", () => {
    const full = leases(Array.from({ length: MAX_STREAMS_PER_CUSTOMER }, (_, i) => `b${i}`));
    expect(decideStream(full, "new")).toMatchObject({
      kind: "refused",
      scope: "customer",
      max: MAX_STREAMS_PER_CUSTOMER,
    });
  });
});

describe("renewing a lease (decideRenewal)", () => {
  it("renews a live lease of a valid key", () => {
    expect(decideRenewal(lease("b", 0, 1000), new Set(), 1000 + LEASE_EXPIRES_MS - 1)).toBe("renewed");
  });

  it("answers revoked once its key is, so the stream ends", () => {
    expect(decideRenewal(lease("b", 0, 1000), new Set(["key_a"]), 1500)).toBe("revoked");
  });

  it("answers expired for a lease not renewed in time, or unknown", () => {
    expect(decideRenewal(lease("b", 0, 1000), new Set(), 1000 + LEASE_EXPIRES_MS)).toBe("expired");
    expect(decideRenewal(undefined, new Set(), 0)).toBe("expired");
  });
});

describe("units held by open streams in the sliding window", () => {
  const setting = { limit: 3, windowSeconds: 60 };
  const log = (hits: number[]): WindowLog => ({ count: hits.length, at: (i) => hits[i]! });

  it("count as used, so fewer requests fit", () => {
    expect(decide(log([0]), 1000, setting, 1)).toMatchObject({ allowed: true, used: 3, remaining: 0 });
    expect(decide(log([0, 500]), 1000, setting, 1)).toMatchObject({ allowed: false, used: 3 });
  });

  it("tell the wait until a counted request leaves, when one frees a unit", () => {
    expect(windowUsage(log([0, 500]), 1000, setting, 1).resetSeconds).toBe(59);
    expect(windowUsage(log([0, 30_000]), 40_000, setting, 1).resetSeconds).toBe(20);
  });

  it("say a window when only held units fill the budget: none leaves by time", () => {
    expect(windowUsage(log([]), 1000, setting, 3)).toMatchObject({ used: 3, remaining: 0, resetSeconds: 60 });
    expect(windowUsage(log([]), 1000, setting, 1)).toMatchObject({ used: 1, remaining: 2, resetSeconds: 0 });
  });
});
