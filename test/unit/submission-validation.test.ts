import { describe, expect, it } from "vitest";
import { parseItem, parseSubmission } from "../../src/batch/submission";
import { ApiError } from "../../src/http/problem";
import { COMPLETE_PERSON } from "../fixtures";

const problemOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.init;
    throw error;
  }
  throw new Error("expected an ApiError");
};

describe("the submission envelope", () => {
  it("accepts items and defaults fields to email and phone", () => {
    const submission = parseSubmission({ items: [{ email: "a@b.example" }] }, 10, "test");
    expect(submission.fields).toEqual(["email", "phone"]);
    expect(submission.items).toHaveLength(1);
  });

  it("keeps the requested fields once each", () => {
    expect(
      parseSubmission({ items: [{ email: "a@b.example" }], fields: ["phone", "phone"] }, 10, "test").fields,
    ).toEqual(["phone"]);
  });

  it.each([
    ["a non-object body", [1, 2]],
    ["null", null],
    ["a missing items array", {}],
    ["items that are not an array", { items: "x" }],
    ["an empty items array", { items: [] }],
    ["an unknown top-level field", { items: [{}], priority: "high" }],
    ["an unknown field name", { items: [{}], fields: ["fax"] }],
    ["an empty fields array", { items: [{}], fields: [] }],
  ])("rejects %s with 400 invalid_request", (_, body) => {
    const problem = problemOf(() => parseSubmission(body, 10, "test"));
    expect(problem.status).toBe(400);
    expect(problem.code).toBe("invalid_request");
  });

  it("names the offending path for envelope errors", () => {
    const problem = problemOf(() => parseSubmission({ items: [{}], extra: 1 }, 10, "test"));
    expect(problem.errors).toEqual([{ path: "extra", message: "unknown field 'extra'" }]);
  });

  it("rejects more than the maximum number of items with 413 too_many_items", () => {
    const problem = problemOf(() => parseSubmission({ items: new Array(11).fill({}) }, 10, "test"));
    expect(problem.status).toBe(413);
    expect(problem.code).toBe("too_many_items");
    expect(problem.extensions).toEqual({ maxItems: 10 });
  });
});

describe("an item", () => {
  it.each([
    [{ linkedinUrl: "https://www.linkedin.com/in/jane-doe" }],
    [{ linkedinUrl: "linkedin.com/in/jane-doe/" }],
    [{ email: "jane@example.com" }],
    [{ firstName: "Jane", lastName: "Doe", companyDomain: "example.com" }],
    [{ fullName: "Jane Doe", companyName: "Example Inc" }],
    [
      {
        fullName: "Jane Doe",
        companyName: "Example",
        companyDomain: "",
        email: "",
        linkedinUrl: "https://linkedin.com/in/jd",
      },
    ],
  ])("is valid when identifiable: %j", (raw) => {
    const item = parseItem(raw);
    expect(item.error).toBeNull();
    expect(item.input).toEqual(raw);
  });

  it("keeps its externalId", () => {
    expect(parseItem({ externalId: "crm-7", email: "a@b.example" }).externalId).toBe("crm-7");
  });

  it.each([
    ["not an object", 42, "item must be a JSON object"],
    ["an array", [], "item must be a JSON object"],
    ["null", null, "item must be a JSON object"],
    ["a non-string field", { email: 5 }, "email must be a string"],
    [
      "an over-long field",
      { email: "a@b.example", fullName: "x".repeat(513) },
      "fullName must be at most 512 characters",
    ],
    ["an unknown field", { email: "a@b.example", phone: "+1" }, "unknown field 'phone'"],
    ["a malformed email", { email: "not-an-email" }, "email must be an email address"],
    [
      "a malformed LinkedIn URL",
      { linkedinUrl: "https://example.com/in/x" },
      "linkedinUrl must be a LinkedIn profile URL",
    ],
    ["a malformed domain", { fullName: "A B", companyDomain: "not a domain" }, "companyDomain must be a domain name"],
    ["a name without a company", { firstName: "A", lastName: "B" }, "companyDomain a name needs a company"],
    ["a company without a name", { companyDomain: "example.com" }, "item needs linkedinUrl, email, or a name"],
    [
      "a first name alone with a company",
      { firstName: "A", companyDomain: "example.com" },
      "item needs linkedinUrl, email, or a name",
    ],
    ["only blank identifiers", { email: "  ", linkedinUrl: "" }, "item needs linkedinUrl, email, or a name"],
  ])("is failed with invalid_input when %s", (_, raw, message) => {
    const item = parseItem(raw);
    expect(item.error?.code).toBe("invalid_input");
    expect(item.error?.message).toContain(message);
  });

  it("echoes only well-formed known fields of an invalid item", () => {
    const item = parseItem({ externalId: "crm-1", email: 7, fullName: "x".repeat(600), other: "y" });
    expect(item.input).toEqual({ externalId: "crm-1" });
    expect(item.externalId).toBe("crm-1");
  });
});

describe("an item with input no decoder or store can take", () => {
  it.each([
    "https://www.linkedin.com/in/%zz",
    "https://www.linkedin.com/in/ab%",
    "https://www.linkedin.com/in/%ff",
    "linkedin.com/in/jane%e2%82",
  ])("is failed with invalid_input for the malformed percent-escape in %s", (linkedinUrl) => {
    const item = parseItem({ linkedinUrl });
    expect(item.error).toEqual({
      code: "invalid_input",
      message: expect.stringContaining("linkedinUrl must be a LinkedIn profile URL"),
    });
  });

  it("fails only that item; the rest of the batch is accepted", () => {
    const submission = parseSubmission(
      { items: [{ linkedinUrl: "https://www.linkedin.com/in/%zz" }, { email: "jane@example.com" }] },
      10,
      "test",
    );
    expect(submission.items.map((item) => item.error?.code ?? null)).toEqual(["invalid_input", null]);
  });

  it("accepts a well-formed escape in a LinkedIn slug", () => {
    expect(parseItem({ linkedinUrl: "https://www.linkedin.com/in/j%C3%BCrgen-m%C3%BCller" }).error).toBeNull();
  });

  it.each(["%00", "%0a", "%2F", "%20"])(
    "refuses a LinkedIn slug that decodes to a control, a slash or a space (%s)",
    (percentEscape) => {
      expect(parseItem({ linkedinUrl: `https://www.linkedin.com/in/jane${percentEscape}doe` }).error?.code).toBe(
        "invalid_input",
      );
    },
  );

  const complete = COMPLETE_PERSON;
  const fields = Object.keys(complete) as (keyof typeof complete)[];
  const cases = fields.flatMap((field) => [
    [field, "a NUL", "\u0000"],
    [field, "an escape character", "\u001b"],
    [field, "a C1 control", "\u0085"],
    [field, "a lone high surrogate", "\ud800"],
    [field, "a lone low surrogate", "\udc00"],
  ]);

  it.each(cases)("is failed with invalid_input when %s holds %s", (field, _, junk) => {
    const item = parseItem({ ...complete, [field]: `ja${junk}ne` });
    expect(item.error?.code).toBe("invalid_input");
    expect(item.error?.message).toContain(`${field} must not contain control characters or unpaired surrogates`);
    expect(item.input).not.toHaveProperty(field);
  });

  it("keeps tabs and newlines in names: they are whitespace", () => {
    expect(parseItem({ fullName: "Jane\tDoe\n", companyName: "Example" }).error).toBeNull();
  });

  it("refuses a control character inside an email address", () => {
    const item = parseItem({ email: "a\u0000b@example.com" });
    expect(item.error?.code).toBe("invalid_input");
  });

  it.each([
    [{ email: "jane@bücher.example" }],
    [{ email: "jürgen@example.com" }],
    [{ fullName: "Jane Doe", companyDomain: "bücher.example" }],
    [{ fullName: "Jane Doe", companyDomain: "BÜCHER.例え.jp" }],
  ])("accepts an internationalized domain: %j", (raw) => {
    expect(parseItem(raw).error).toBeNull();
  });

  it.each([
    "bü cher.example",
    "bücher.example/x",
    "bü@cher.example",
    "bücher.example:80",
    "bü%63her.example",
    "xn--.example",
  ])("refuses a domain with URL syntax in it: %s", (companyDomain) => {
    expect(parseItem({ fullName: "Jane Doe", companyDomain }).error?.code).toBe("invalid_input");
  });
});
