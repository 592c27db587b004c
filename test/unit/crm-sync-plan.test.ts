import { describe, expect, it } from "vitest";
import type { CrmRecord } from "../../src/crm/crm";
import { instanceOrigin } from "../../src/crm/crm-config";
import { CrmBadAnswerError, CrmRefusedError, CrmUnauthorizedError, CrmUnavailableError } from "../../src/crm/crm-http";
import type { Change } from "../../src/crm/schemas";
import { afterFailure, MAX_WAITS } from "../../src/crm/sync-failures";
import {
  outcomeOf,
  planApply,
  planRecord,
  planUndo,
  sameValue,
  valuesToWrite,
  writtenChanges,
} from "../../src/crm/sync-plan";
import { BatchGoneError } from "../../src/crm/sync-steps";

// What a sync writes into one record, decided alone: each rule, and the nevers.

const properties = { email: "email", phone: "phone" };
const record = (values: Record<string, string>, editedByUser: Record<string, boolean> = {}): CrmRecord => ({
  id: "1",
  values,
  editedByUser,
});

describe("planRecord", () => {
  it("fill_empty writes only into an empty property", () => {
    const empty = planRecord(record({ email: "" }), { email: "a@x.example" }, { email: "fill_empty" }, properties);
    expect(empty).toMatchObject({
      outcome: "updated",
      changes: [{ before: null, after: "a@x.example", action: "write" }],
    });
    const full = planRecord(
      record({ email: "b@x.example" }),
      { email: "a@x.example" },
      { email: "fill_empty" },
      properties,
    );
    expect(full).toMatchObject({ outcome: "skipped", changes: [{ action: "skip", reason: "not_empty" }] });
  });

  it("overwrite replaces, whoever set the value", () => {
    const plan = planRecord(
      record({ email: "b@x.example" }, { email: true }),
      { email: "a@x.example" },
      { email: "overwrite" },
      properties,
    );
    expect(plan.changes[0]).toMatchObject({ before: "b@x.example", action: "write" });
  });

  it("skip_if_edited_by_user leaves a value a person set last, and replaces one an integration set", () => {
    const rules = { phone: "skip_if_edited_by_user" } as const;
    const byPerson = planRecord(
      record({ phone: "+1 212 555 0100" }, { phone: true }),
      { phone: "+12125550199" },
      rules,
      properties,
    );
    expect(byPerson.changes[0]).toMatchObject({ action: "skip", reason: "edited_by_user" });
    const byImport = planRecord(
      record({ phone: "+1 212 555 0100" }, { phone: false }),
      { phone: "+12125550199" },
      rules,
      properties,
    );
    expect(byImport.changes[0]).toMatchObject({ action: "write" });
    const empty = planRecord(record({}, { phone: true }), { phone: "+12125550199" }, rules, properties);
    expect(empty.changes[0]).toMatchObject({ action: "write", before: null });
  });

  it("never writes a value already there (told apart by case and punctuation), nor one not found, nor a blank", () => {
    const same = planRecord(
      record({ email: "A@X.example", phone: "+1 (212) 555-0199" }),
      { email: "a@x.example", phone: "+12125550199" },
      { email: "overwrite", phone: "overwrite" },
      properties,
    );
    expect(same.outcome).toBe("unchanged");
    expect(same.changes.map((change) => change.reason)).toEqual(["same_value", "same_value"]);
    expect(planRecord(record({ email: "b@x.example" }), {}, { email: "overwrite" }, properties)).toEqual({
      outcome: "skipped",
      reason: "nothing_found",
      changes: [],
    });
    expect(
      planRecord(record({ email: "b@x.example" }), { email: "  " }, { email: "overwrite" }, properties).changes,
    ).toEqual([]);
    expect(planRecord(undefined, { email: "a@x.example" }, { email: "overwrite" }, properties)).toMatchObject({
      reason: "record_not_found",
    });
  });

  it("writes only the fields the sync names", () => {
    const plan = planRecord(
      record({}),
      { email: "a@x.example", phone: "+12125550199" },
      { phone: "fill_empty" },
      properties,
    );
    expect(valuesToWrite(plan.changes)).toEqual({ phone: "+12125550199" });
  });
});

describe("planApply", () => {
  const preview = planRecord(
    record({ email: "old@x.example" }),
    { email: "a@x.example", phone: "+12125550199" },
    { email: "overwrite", phone: "fill_empty" },
    properties,
  ).changes;

  it("writes the preview as it was when the record has not moved", () => {
    const plan = planApply(record({ email: "old@x.example" }), preview);
    expect(valuesToWrite(plan.changes)).toEqual({ email: "a@x.example", phone: "+12125550199" });
  });

  it("leaves the whole record when a previewed property changed since", () => {
    const plan = planApply(record({ email: "rep@x.example" }), preview);
    expect(plan).toMatchObject({ outcome: "skipped" });
    expect(plan.changes.every((change) => change.reason === "changed_since_preview")).toBe(true);
    expect(valuesToWrite(plan.changes)).toBeNull();
  });

  it("finds its own writes unchanged when applied again", () => {
    const plan = planApply(record({ email: "a@x.example", phone: "+1 212 555 0199" }), preview);
    expect(plan.outcome).toBe("unchanged");
    expect(valuesToWrite(plan.changes)).toBeNull();
  });
});

describe("the small rules", () => {
  it("sameValue and outcomeOf", () => {
    expect(sameValue("email", " A@b.example ", "a@B.example")).toBe(true);
    expect(sameValue("phone", "+1 212-555-0199", "+12125550199")).toBe(true);
    expect(sameValue("phone", "12125550199", "+12125550199")).toBe(false);
    expect(outcomeOf([])).toBe("skipped");
  });

  it("instanceOrigin holds Salesforce instance URLs to the host pattern, and answers their origin", () => {
    const origin = "https://acme.my.salesforce.com";
    for (const url of [origin, `${origin}/`, "HTTPS://ACME.my.salesforce.com"])
      expect(instanceOrigin("*.my.salesforce.com", url), url).toBe(origin);
    for (const url of [
      "https://my.salesforce.com",
      "http://acme.my.salesforce.com",
      "https://acme.my.salesforce.com.evil.example",
      "https://acme.my.salesforce.com:8443",
      "https://u:p@acme.my.salesforce.com",
      "https://:p@acme.my.salesforce.com",
      "https://u@acme.my.salesforce.com",
      "https://acme.my.salesforce.com#",
      "https://acme.my.salesforce.com/#top",
      "https://acme.my.salesforce.com?",
      "https://acme.my.salesforce.com/?a=1",
      "https://acme.my.salesforce.com/services",
      "https://acme.my.salesforce.com//",
      "not a url",
    ])
      expect(instanceOrigin("*.my.salesforce.com", url), url).toBeNull();
  });
});

describe("afterFailure", () => {
  it("ends the sync on a refused token, a refused request or a batch gone; waits out the rest, 20 times", () => {
    expect(afterFailure(new CrmUnauthorizedError("401"), "hubspot", 0)).toMatchObject({ fail: "crm_unauthorized" });
    expect(afterFailure(new CrmRefusedError("400", 400), "hubspot", 0)).toMatchObject({ fail: "crm_refused" });
    expect(afterFailure(new BatchGoneError("batch_deleted"), "hubspot", 0)).toMatchObject({ fail: "batch_deleted" });
    expect(afterFailure(new CrmUnavailableError("429", 10), "hubspot", 3)).toEqual({
      waitSeconds: 10,
      unexpected: false,
    });
    expect(afterFailure(new Error("boom"), "hubspot", 0)).toEqual({ waitSeconds: 30, unexpected: true });
    expect(afterFailure(new CrmUnavailableError("429", 10), "hubspot", MAX_WAITS)).toMatchObject({
      fail: "crm_unavailable",
    });
    // A CRM answering what its API does not is waited out too (a maintenance page passes), then said as its fault.
    expect(afterFailure(new CrmBadAnswerError("hubspot answered a page", 10), "hubspot", 0)).toEqual({
      waitSeconds: 10,
      unexpected: false,
    });
    expect(afterFailure(new CrmBadAnswerError("hubspot answered a page", 10), "hubspot", MAX_WAITS)).toMatchObject({
      fail: "crm_bad_answer",
    });
  });
});

describe("planUndo", () => {
  const wrote = (before: string | null, after: string, field: "email" | "phone" = "email"): Change => ({
    field,
    property: field,
    before,
    after,
    rule: "overwrite",
    action: "write",
  });

  it("restores the value from before, a blank as null (valuesToWrite blanks it)", () => {
    const plan = planUndo(record({ email: "a@x.example", phone: "+1 512 555 0100" }), [
      wrote(null, "a@x.example"),
      wrote("+15125550199", "+15125550100", "phone"),
    ]);
    expect(plan).toMatchObject({
      outcome: "updated",
      changes: [
        { before: "a@x.example", after: null, action: "write" },
        { before: "+1 512 555 0100", after: "+15125550199", action: "write" },
      ],
    });
    expect(valuesToWrite(plan.changes)).toEqual({ email: null, phone: "+15125550199" });
  });

  it("leaves a property changed since the write, or one a person edited last, as changed_since_apply", () => {
    const changed = planUndo(record({ email: "c@x.example" }), [wrote("b@x.example", "a@x.example")]);
    expect(changed).toMatchObject({
      outcome: "skipped",
      changes: [{ before: "c@x.example", action: "skip", reason: "changed_since_apply" }],
    });
    const retyped = planUndo(record({ email: "a@x.example" }, { email: true }), [wrote(null, "a@x.example")]);
    expect(retyped.changes[0]).toMatchObject({ action: "skip", reason: "changed_since_apply" });
    expect(valuesToWrite(retyped.changes)).toBeNull();
  });

  it("finds a value already back as it was unchanged (an undo step repeated), and a record gone skipped", () => {
    expect(planUndo(record({ email: "B@x.example" }), [wrote("b@x.example", "a@x.example")])).toMatchObject({
      outcome: "unchanged",
      changes: [{ action: "skip", reason: "same_value" }],
    });
    expect(planUndo(undefined, [wrote(null, "a@x.example")])).toMatchObject({
      outcome: "skipped",
      reason: "record_not_found",
    });
  });

  it("undoes what was written: writes of an updated record, and a repeated apply's own values found there", () => {
    const write = wrote("b@x.example", "a@x.example");
    expect(writtenChanges("updated", [write])).toEqual([write]);
    expect(writtenChanges("failed", [write])).toEqual([]);
    const again: Change = { ...write, action: "skip", reason: "same_value" };
    expect(writtenChanges("unchanged", [again])).toEqual([again]);
    // A sync that found the CRM already holding its value wrote nothing.
    expect(writtenChanges("unchanged", [{ ...again, before: "a@x.example" }])).toEqual([]);
    expect(writtenChanges("skipped", [{ ...write, action: "skip", reason: "not_empty" }])).toEqual([]);
  });
});
