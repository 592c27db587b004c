import { describe, expect, it } from "vitest";
import { batchIdSchema, isBatchId, jurisdictionOfBatch, newBatchId } from "../../src/base/batch-id";
import { localName, objectNamed } from "../../src/base/placement";

// A namespace as Cloudflare's behaves for these calls: `jurisdiction(j)` answers a sub-namespace
// whose objects carry `j`. (workerd throws instead; the integration tests run that path.)
function platformNamespace(refusal?: Error) {
  const named = (jurisdiction: string | undefined) => ({
    idFromName: (name: string) => ({ name, jurisdiction }),
    get: (id: unknown) => ({ id }),
  });
  return {
    ...named(undefined),
    jurisdiction: (jurisdiction: string) => {
      if (refusal) throw refusal;
      return named(jurisdiction);
    },
  } as unknown as DurableObjectNamespace;
}

describe("objectNamed", () => {
  it("finds an object of a jurisdiction in the namespace restricted to it", () => {
    expect(objectNamed(platformNamespace(), "live:cus_1", "eu").id).toEqual({ name: "live:cus_1", jurisdiction: "eu" });
  });

  it("finds an object without a jurisdiction in the namespace itself", () => {
    expect(objectNamed(platformNamespace(), "live:cus_1", undefined).id).toEqual({
      name: "live:cus_1",
      jurisdiction: undefined,
    });
  });

  it("names the object apart only when workerd refuses jurisdictions, and throws any other error", () => {
    const workerd = platformNamespace(new Error("Jurisdiction restrictions are not implemented in workerd."));
    expect(objectNamed(workerd, "live:cus_1", "eu").id).toEqual({
      name: localName("live:cus_1", "eu"),
      jurisdiction: undefined,
    });
    expect(() => objectNamed(platformNamespace(new TypeError("something else")), "live:cus_1", "eu")).toThrow(
      "something else",
    );
  });
});

describe("batch ids", () => {
  it("name the jurisdiction of a customer that has one, and nothing otherwise", () => {
    const eu = newBatchId("eu");
    const global = newBatchId(undefined);
    expect(jurisdictionOfBatch(eu)).toBe("eu");
    expect(jurisdictionOfBatch(global)).toBeUndefined();
    for (const id of [eu, global]) {
      expect(isBatchId(id)).toBe(true);
      expect(batchIdSchema.safeParse(id).success).toBe(true);
    }
  });

  it("refuse anything else", () => {
    for (const id of ["", "us-3e1cab3a-0527-4fea-987c-d486f470829c", "eu-", "eu-not-a-uuid", "3e1cab3a0527"]) {
      expect(isBatchId(id), id).toBe(false);
    }
  });
});
