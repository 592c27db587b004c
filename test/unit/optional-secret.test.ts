import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { optionalSecret } from "../../src/base/secrets";
import { FAKE_KEYS } from "../fakes/fake-keys";
import { envWith } from "../helpers";

// A vendor's key is an optional secret, read by the name its declaration gives (src/base/secrets.ts).
describe("an optional secret", () => {
  it("is the value of the secret of that name (vitest.config.ts gives the vendors' keys)", () => {
    expect(optionalSecret(env, "HUNTER_API_KEY")).toBe(FAKE_KEYS.hunter);
  });

  it("is absent when unset, empty, or not a string (a binding or a JSON variable of that name)", () => {
    expect(optionalSecret(env, "NO_SUCH_SECRET")).toBeUndefined();
    expect(optionalSecret(envWith({ HUNTER_API_KEY: "" }), "HUNTER_API_KEY")).toBeUndefined();
    expect(optionalSecret(env, "API_KEYS")).toBeUndefined();
    expect(optionalSecret(env, "MAX_BATCH_ITEMS")).toBeUndefined();
  });
});
