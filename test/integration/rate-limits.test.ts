import { describe, expect, it } from "vitest";
import { createKey, request } from "../helpers";

describe("GET /v2/{environment}/me/rate-limits", () => {
  it("lists every endpoint type with its tier, operations and configured limit", async () => {
    const { key } = await createKey({ environment: "live" });
    const response = await request("/v2/live/me/rate-limits", { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { endpointType: "contact_info_request", tier: "Tier 3", operations: ["POST /v2/live/person/contact-info"], limit: 50, windowSeconds: 60, remaining: 50, resetSeconds: 0, used: 0 },
      { endpointType: "contact_info_status", tier: "Tier 4", operations: ["GET /v2/live/person/contact-info/{id}"], limit: 100, windowSeconds: 60, remaining: 100, resetSeconds: 0, used: 0 },
      { endpointType: "rate_limits", tier: "Tier 4", operations: ["GET /v2/live/me/rate-limits"], limit: 100, windowSeconds: 60, remaining: 99, resetSeconds: 60, used: 1 },
    ]);
  });

  it("shows the limits stored on the key's record", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 7, windowSeconds: 30 } } });
    const limits = await (await request("/v2/test/me/rate-limits", { key })).json<{ endpointType: string; limit: number; windowSeconds: number }[]>();
    expect(limits.find((l) => l.endpointType === "contact_info_status")).toMatchObject({ limit: 7, windowSeconds: 30 });
    expect(limits.find((l) => l.endpointType === "contact_info_request")).toMatchObject({ limit: 50, windowSeconds: 60 });
  });
});
