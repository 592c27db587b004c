import { describe, expect, it } from "vitest";
import {
  API_KEY_PATTERN,
  apiKeyRecordSchema,
  apiKeyWrites,
  generateApiKey,
  hashApiKey,
  issueApiKey,
  kvKey,
} from "../../src/keys/api-key";

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

  it("hash as the SHA-256 of the key in hex", async () => {
    // The well-known SHA-256 test vector for "abc".
    expect(await hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("API key records in KV", () => {
  it("are written as the record under its hash and the hash under its id", async () => {
    const { hash, record } = await issueApiKey({ customerId: "cus_1", environment: "test", name: "ci" });
    const [byHash, byId] = apiKeyWrites(hash, record);
    expect(byHash).toEqual({ key: kvKey.byHash(hash), value: JSON.stringify(record) });
    expect(apiKeyRecordSchema.parse(JSON.parse(byHash!.value))).toEqual(record);
    expect(byId).toEqual({
      key: kvKey.byId(record.keyId),
      value: hash,
      metadata: expect.objectContaining({ keyId: record.keyId, customerId: "cus_1" }),
    });
  });

  it("never list the webhook secret", async () => {
    const { hash, record } = await issueApiKey({ customerId: "cus_1", environment: "live" });
    expect(record.webhookSecret).toMatch(/^whsec_/);
    const [, byId] = apiKeyWrites(hash, record);
    expect(JSON.stringify(byId)).not.toContain(record.webhookSecret);
  });
});
