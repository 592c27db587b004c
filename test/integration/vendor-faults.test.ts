import { describe, expect, it } from "vitest";
import { createKey, submitBatch, waitForCompletion } from "../helpers";

// A misbehaving vendor is said as one (issue 46, item 5, the enrichment side): a finder or verifier
// answering 200 with an HTML page, JSON of a shape it does not document, or a body still trickling
// in at the timeout is the vendor's fault. The item's provenance names that vendor unavailable; the
// others answer; nothing is put on the customer or fails as an error of ours.

const sourceOutcome = (sources: { name: string; outcome: string }[] | undefined, name: string) =>
  sources?.find((source) => source.name === name)?.outcome;

describe("finders that answer 200 with what is not an answer", () => {
  it.each(["html", "shape", "trickle"])(
    "(%s) are unavailable for the item, which the others complete",
    async (scenario) => {
      const { key } = await createKey({ environment: "live" });
      const person = { firstName: "Vera", lastName: `Vendor${scenario}`, companyDomain: `vendors-${scenario}.example` };
      const status = await waitForCompletion(
        key,
        await submitBatch(key, { items: [person], fields: ["email"] }, "live"),
      );
      const [item] = status.items;
      expect(item).toMatchObject({ status: "completed", outcome: "found", error: null });
      // Hunter and PDL act the scenario out; Apollo and Prospeo answer.
      expect(sourceOutcome(item?.sources, "hunter")).toBe("unavailable");
      expect(sourceOutcome(item?.sources, "pdl")).toBe("unavailable");
      expect(sourceOutcome(item?.sources, "apollo")).toBe("found");
    },
  );
});

describe("verifiers that answer 200 with what is not an answer", () => {
  it.each(["verifiershtml", "verifiersshape", "verifierstrickle"])(
    "(%s) leave the address unknown, naming both verifiers unavailable",
    async (scenario) => {
      const { key } = await createKey({ environment: "live" });
      const person = { firstName: "Walt", lastName: `Verify${scenario}`, companyDomain: `acme-${scenario}.example` };
      const status = await waitForCompletion(
        key,
        await submitBatch(key, { items: [person], fields: ["email"] }, "live"),
      );
      const [item] = status.items;
      expect(item).toMatchObject({ status: "completed", error: null });
      expect(sourceOutcome(item?.sources, "zerobounce")).toBe("unavailable");
      expect(sourceOutcome(item?.sources, "neverbounce")).toBe("unavailable");
      // Judged by no one: unknown, as when the verifiers are down (never invalid on a vendor's fault).
      expect(item?.emails.map((email) => email.status)).toEqual(["unknown"]);
    },
  );
});
