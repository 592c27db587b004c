import { describe, expect, it } from "vitest";
import { batchStatus } from "../../src/contact-info/batch-views";

describe("batch status", () => {
  it("is pending while no item has finished", () => expect(batchStatus(3, 0, 0)).toBe("pending"));
  it("is processing once some items have finished", () => expect(batchStatus(3, 1, 0)).toBe("processing"));
  it("counts failed items as finished", () => expect(batchStatus(3, 1, 1)).toBe("processing"));
  it("is completed exactly when completed + failed == total", () => {
    expect(batchStatus(3, 2, 1)).toBe("completed");
    expect(batchStatus(3, 0, 3)).toBe("completed");
  });
});
