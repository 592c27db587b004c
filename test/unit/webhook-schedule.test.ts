import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readHubConfig } from "../../src/webhooks/hub-config";
import { afterAttempt, disableReason, parseSchedule } from "../../src/webhooks/schedule";
import { envWith } from "../helpers";

const HOUR = 3600;

describe("the retry schedule of endpoint deliveries", () => {
  it("reads WEBHOOK_RETRY_SCHEDULE as the waits after each failed attempt", () => {
    expect(parseSchedule("5s,5m,30m,2h,5h,10h,10h")).toEqual([5, 300, 1800, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(parseSchedule(" 1s , 2d")).toEqual([1, 2 * 86_400]);
    for (const bad of ["", "5", "5x", "5s,,5m", "-5s", "1.5h"]) expect(parseSchedule(bad)).toBeNull();
  });

  it("spans at least 24 hours by default (wrangler.toml), and refuses a schedule it cannot read", () => {
    const production = parseSchedule("5s,5m,30m,2h,5h,10h,10h")!;
    expect(production.reduce((sum, wait) => sum + wait, 0)).toBeGreaterThanOrEqual(24 * HOUR);
    expect(readHubConfig(env).retryScheduleSeconds).toEqual([0, 0]);
    expect(() => readHubConfig(envWith({ WEBHOOK_RETRY_SCHEDULE: "soon" }))).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it("retries a failure after the attempt's wait, gives up past the last, and stops at a success", () => {
    const schedule = [5, 300];
    const failure = { statusCode: 500, error: null };
    expect(afterAttempt(failure, 1, schedule, 1000)).toEqual({ status: "pending", nextAttemptAt: 6000 });
    expect(afterAttempt({ statusCode: null, error: "timeout" }, 2, schedule, 1000)).toEqual({
      status: "pending",
      nextAttemptAt: 301_000,
    });
    expect(afterAttempt(failure, 3, schedule, 1000)).toEqual({ status: "failed", nextAttemptAt: null });
    expect(afterAttempt({ statusCode: 307, error: "redirect" }, 3, schedule, 1000).status).toBe("failed");
    expect(afterAttempt({ statusCode: 204, error: null }, 1, schedule, 1000)).toEqual({
      status: "succeeded",
      nextAttemptAt: null,
    });
  });
});

describe("disabling an endpoint that fails everything", () => {
  it("disables it once every attempt has failed for WEBHOOK_DISABLE_AFTER_SECONDS, with the reason", () => {
    const since = Date.parse("2026-11-01T00:00:00.000Z");
    expect(disableReason(null, since + 10 * 86_400_000, 86_400)).toBeNull();
    expect(disableReason(since, since + 86_399_000, 86_400)).toBeNull();
    expect(disableReason(since, since + 86_400_000, 86_400)).toMatch(/since 2026-11-01T00:00:00.000Z/);
  });
});
