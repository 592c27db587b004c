import { describe, expect, it } from "vitest";
import { notInTheWorker } from "../../src/base/once";
import { authProblems, environmentParams, internalError } from "../../src/openapi/common";
import { requestIdHeader } from "../../src/openapi/headers";

describe("what only the OpenAPI document reads", () => {
  it("is not made where the Worker runs (OPENAPI_METADATA false, as wrangler.toml defines it): a read says so", () => {
    expect(OPENAPI_METADATA).toBe(false);
    for (const value of [environmentParams, authProblems, internalError, requestIdHeader]) {
      expect(value).toBe(notInTheWorker);
    }
    expect(() => environmentParams()).toThrow("documentation only: the Worker's build drops it");
  });
});
