import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { DEV_SECRETS } from "../../scripts/dev-keys";
import { VENDORS } from "../../src/tools-api";

// The secrets the Worker cannot serve without are declared in wrangler.toml's [secrets]: `wrangler types`
// types them on Env, `wrangler deploy` refuses until each is set, and `wrangler dev` takes only those from
// a file. So each needs a development value for the servers of this machine, and a vendor's key, which a
// deploy may lack (the vendor is then skipped), must never be one (src/base/secrets.ts).
const required: string[] = unstable_readConfig({ config: "wrangler.toml" }).secrets?.required ?? [];

describe("the Worker's required secrets", () => {
  it("each have a development value (scripts/dev-secrets.env), and that file holds nothing else", () => {
    expect(required.length).toBeGreaterThan(0);
    expect(Object.keys(DEV_SECRETS).toSorted()).toEqual(required.toSorted());
  });

  it("leave out every vendor's API key, so a deploy without one is not refused", () => {
    expect(VENDORS.length).toBeGreaterThan(0);
    expect(required.filter((name) => VENDORS.some((vendor) => vendor.secret === name))).toEqual([]);
  });
});
