import { describe, expect, it } from "vitest";
import { type ErasableRecord, erasedRecord } from "../../src/crm/personal-values";

// One place decides what of a stored sync record is personal, and what an erased person's record keeps.

const record = (over: Partial<ErasableRecord> = {}): ErasableRecord => ({
  matchKey: "ada@analytical.example",
  done: true,
  outcome: "updated",
  reason: null,
  error: { code: "CONFLICT", message: "Contact already exists: ada@analytical.example" },
  ...over,
});

describe("erasedRecord", () => {
  it("keeps no value: found, before (changes), the email it was matched by, the CRM's words", () => {
    const erased = erasedRecord(record(), "email", true);
    expect(erased).toMatchObject({
      matchKey: null,
      candidates: {},
      changes: [],
      error: { code: "CONFLICT", message: "" },
    });
    expect(JSON.stringify(erased)).not.toContain("ada@");
  });

  it("keeps the record id it was matched by (externalId: the CRM's own id, not the person's)", () => {
    expect(erasedRecord(record({ matchKey: "1001" }), "externalId", true).matchKey).toBe("1001");
  });

  it("says what was written; anything not written (a preview, a pending record) is skipped as erased", () => {
    expect(erasedRecord(record(), "externalId", true)).toMatchObject({ outcome: "updated", reason: null, done: true });
    expect(erasedRecord(record(), "externalId", false)).toMatchObject({ outcome: "skipped", reason: "erased" });
    expect(erasedRecord(record({ done: false, outcome: null }), "externalId", true)).toMatchObject({
      outcome: "skipped",
      reason: "erased",
      done: true,
    });
  });
});
