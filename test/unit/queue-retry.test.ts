import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_SECONDS, queueRetryDelaySeconds } from "../../src/queue/retry";

const delays = { retryBaseDelaySeconds: 10, retryMaxDelaySeconds: 1000 };
const top = () => 1;

describe("the queue retry delay", () => {
  it("is the backoff for the message's attempt", () => {
    // Attempt 3: 40 s before jitter; with the jitter at its top, exactly 40.
    expect(queueRetryDelaySeconds(3, delays, undefined, top)).toBe(40);
  });

  it("is the upstream's Retry-After when that is longer", () => {
    expect(queueRetryDelaySeconds(1, delays, 300, top)).toBe(300);
  });

  it("keeps the backoff when Retry-After is shorter", () => {
    expect(queueRetryDelaySeconds(3, delays, 5, top)).toBe(40);
  });

  it("honours a Retry-After up to MAX_RETRY_AFTER_SECONDS, no further", () => {
    expect(queueRetryDelaySeconds(1, delays, MAX_RETRY_AFTER_SECONDS, top)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(queueRetryDelaySeconds(1, delays, 86_400, top)).toBe(MAX_RETRY_AFTER_SECONDS);
  });

  it("never exceeds the 12 hours Queues accept", () => {
    expect(
      queueRetryDelaySeconds(40, { retryBaseDelaySeconds: 10, retryMaxDelaySeconds: 100_000 }, undefined, top),
    ).toBe(43_200);
  });
});
