import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/base/config";
import { DEFAULT_MAX_BATCH_ITEMS, DEFAULT_PRICES, inWords, pricesInWords } from "../../src/base/defaults";

// The test bindings (vitest.config.ts) leave these vars as wrangler.toml gives them.
describe("the defaults the prose quotes", () => {
  it("are wrangler.toml's MAX_BATCH_ITEMS and prices", () => {
    const config = readConfig(env);
    expect(config.maxBatchItems).toBe(DEFAULT_MAX_BATCH_ITEMS);
    expect(config.prices).toEqual(DEFAULT_PRICES);
  });

  it("read as the prose writes them", () => {
    expect(inWords(DEFAULT_MAX_BATCH_ITEMS)).toBe("10,000");
    expect(pricesInWords(DEFAULT_PRICES)).toBe("an email 1 credit, a phone 10");
    expect(pricesInWords({ email: 2, phone: 1 })).toBe("an email 2 credits, a phone 1");
  });
});
