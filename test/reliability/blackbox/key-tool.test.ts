// The key tool as an operator runs it, against its own local KV store.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../../../src/keys/api-key";

const root = resolve(import.meta.dirname, "../../..");
const state = mkdtempSync(join(tmpdir(), "key-tool-"));
copyFileSync(join(root, "wrangler.toml"), join(state, "wrangler.toml"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

const keys = (...args: string[]) =>
  execFileSync(join(root, "node_modules/.bin/tsx"), [join(root, "scripts/keys.ts"), ...args, "--local"], {
    cwd: state,
    encoding: "utf8",
    env: { ...process.env, PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH}` },
  });

const create = (customer: string, environment: string) =>
  JSON.parse(keys("create", "--customer", customer, "--environment", environment, "--json")) as ApiKeyRecord;
const limitsOf = (keyId: string) =>
  (JSON.parse(keys("list", "--json")) as ApiKeyRecord[]).find((r) => r.keyId === keyId)?.rateLimits;

describe("npm run keys -- set-limits", () => {
  it("writes every key of the customer in that environment, and no other", () => {
    const first = create("cus_shared", "test");
    const second = create("cus_shared", "test");
    const live = create("cus_shared", "live");
    const other = create("cus_other", "test");

    keys(
      "set-limits",
      "--customer",
      "cus_shared",
      "--environment",
      "test",
      "--endpoint-type",
      "contact_info_status",
      "--limit",
      "7",
      "--window",
      "30",
    );
    expect(limitsOf(first.keyId)).toEqual({ contact_info_status: { limit: 7, windowSeconds: 30 } });
    expect(limitsOf(second.keyId)).toEqual({ contact_info_status: { limit: 7, windowSeconds: 30 } });
    expect(limitsOf(live.keyId)).toBeUndefined();
    expect(limitsOf(other.keyId)).toBeUndefined();

    // A KEYID stands for its customer and environment: the keys never disagree on the budget they share.
    keys("set-limits", second.keyId, "--endpoint-type", "rate_limits", "--limit", "5", "--window", "10");
    expect(limitsOf(first.keyId)).toEqual({
      contact_info_status: { limit: 7, windowSeconds: 30 },
      rate_limits: { limit: 5, windowSeconds: 10 },
    });
    expect(limitsOf(live.keyId)).toBeUndefined();
  }, 600_000); // eleven commands, each loading wrangler and starting a runtime: 10-15 s apiece, up to 28 s with three CI jobs at once
});
