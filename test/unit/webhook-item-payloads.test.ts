import { describe, expect, it } from "vitest";
import { erasedPayload } from "../../src/webhooks/item-payloads";

const item = (index: number, extra: Record<string, unknown> = {}) => ({
  index,
  externalId: `crm-${index}`,
  status: "completed",
  outcome: "found",
  input: { firstName: "Ada", lastName: `Person${index}` },
  emails: [{ value: `p${index}@example.com` }],
  phones: [],
  error: null,
  fromCache: false,
  credits: 1,
  sources: ["finder"],
  ...extra,
});
const body = (...items: object[]) =>
  JSON.stringify({ type: "item.completed", timestamp: "2026-01-01T00:00:00.000Z", data: { batchId: "b", items } });

describe("an item.completed payload after an erasure", () => {
  it("shows the erased items as the status route does, keeps the others byte for byte, and changes nothing twice", () => {
    const erased = erasedPayload(body(item(0), item(1)), new Map([[1, "2026-02-01T00:00:00.000Z"]]));
    expect(erased).toBe(
      body(item(0), {
        ...item(1),
        externalId: null,
        input: {},
        emails: [],
        phones: [],
        erasedAt: "2026-02-01T00:00:00.000Z",
      }),
    );
    expect(erased).not.toContain("Person1");
    expect(erasedPayload(erased!, new Map([[1, "2026-03-01T00:00:00.000Z"]]))).toBeNull();
  });

  it("is null for a payload without those items, or that is not an item.completed body", () => {
    expect(erasedPayload(body(item(0)), new Map([[5, "2026-02-01T00:00:00.000Z"]]))).toBeNull();
    expect(erasedPayload(JSON.stringify({ type: "webhook.test", data: {} }), new Map([[0, "x"]]))).toBeNull();
  });
});
