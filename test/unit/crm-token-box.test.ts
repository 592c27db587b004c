import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openToken, sealToken } from "../../src/crm/token-box";
import { envWith } from "../helpers";

// CRM tokens at rest: AES-GCM under a key derived from CRM_TOKEN_SECRET, bound to their tenant and CRM.

const tenant = { customerId: "cus_1", environment: "test" as const };

describe("the token box", () => {
  it("seals a token so that only the same secret, tenant and CRM open it", async () => {
    const sealed = await sealToken(env, tenant, "hubspot", "pat-na1-secret-token");
    expect(sealed).not.toContain("secret-token");
    expect(await sealToken(env, tenant, "hubspot", "pat-na1-secret-token")).not.toBe(sealed);
    expect(await openToken(env, tenant, "hubspot", sealed)).toBe("pat-na1-secret-token");
    await expect(openToken(env, { ...tenant, customerId: "cus_2" }, "hubspot", sealed)).rejects.toThrow();
    await expect(openToken(env, { ...tenant, environment: "live" }, "hubspot", sealed)).rejects.toThrow();
    await expect(openToken(env, tenant, "salesforce", sealed)).rejects.toThrow();
    const other = envWith({ CRM_TOKEN_SECRET: "cts_anothersecret000000000000000000000000" });
    await expect(openToken(other, tenant, "hubspot", sealed)).rejects.toThrow();
  });

  it("refuses to work without a secret of 32 characters", async () => {
    await expect(sealToken(envWith({ CRM_TOKEN_SECRET: undefined }), tenant, "hubspot", "t")).rejects.toThrow(
      /CRM_TOKEN_SECRET/,
    );
    await expect(sealToken(envWith({ CRM_TOKEN_SECRET: "short" }), tenant, "hubspot", "t")).rejects.toThrow(
      /CRM_TOKEN_SECRET/,
    );
  });
});
