import { describe, expect, it } from "vitest";
import { API_KEY_PATTERN, generateApiKey, hashApiKey, issueApiKey } from "../../src/keys/api-key";

describe("API keys", () => {
  it("carry their environment and 32 base62 characters", () => {
    expect(generateApiKey("test")).toMatch(/^ck_test_[A-Za-z0-9]{32}$/);
    expect(generateApiKey("live")).toMatch(API_KEY_PATTERN);
  });

  it("are unique", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey("test")));
    expect(keys.size).toBe(1000);
  });

  it("are stored as their SHA-256 only", async () => {
    const { key, hash, record } = await issueApiKey({ customerId: "cus_1", environment: "live" });
    expect(hash).toBe(await hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(record)).not.toContain(key);
    expect(record).toMatchObject({ customerId: "cus_1", environment: "live" });
  });
});
