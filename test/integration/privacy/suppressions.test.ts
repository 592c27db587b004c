import { describe, expect, it } from "vitest";
import {
  createKey,
  createStoredBatch,
  deliver,
  expectProblem,
  itemMessage,
  request,
  submitBatch,
  waitForCompletion,
} from "../../helpers";

// The do-not-enrich list: PUT/GET/DELETE …/privacy/suppressions, and items of a
// suppressed person ending failed/suppressed without a provider call or a charge.
// The live pipeline runs through the real queue; vendors are faked at the HTTP boundary.

const suppressions = (environment = "test") => `/v2/${environment}/privacy/suppressions`;
const put = (key: string, body: unknown, environment = "test") =>
  request(suppressions(environment), {
    method: "PUT",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const list = async (key: string, query = "") => {
  const response = await request(`${suppressions()}${query}`, { key });
  expect(response.status).toBe(200);
  return response.json<{ suppressions: { key: string; createdAt: string }[]; nextCursor: string | null }>();
};

/** How many requests to any fake vendor named `text`. */
const mentions = async (text: string) =>
  (await (await fetch(`https://hunter.test/__mentions/${encodeURIComponent(text)}`)).json<{ requests: number }>())
    .requests;

describe("the suppression list", () => {
  it("adds people (idempotently), lists only hashed keys and dates, and removes one", async () => {
    const { key } = await createKey();
    const added = await put(key, {
      items: [
        { email: "Ada.Lovelace@Analytical.example" },
        { fullName: "Charles Babbage", companyDomain: "engine.example", companyName: "Engines" },
      ],
    });
    expect(added.status).toBe(200);
    const body = await added.json<{ keys: string[][]; added: number }>();
    expect(body.keys.map((keys) => keys.length)).toEqual([1, 2]);
    expect(body.added).toBe(3);
    // The same email differently written is the same key: nothing new.
    const again = await put(key, { items: [{ email: " ada.lovelace@analytical.example" }] });
    expect(await again.json()).toEqual({ keys: [body.keys[0]], added: 0 });

    const page = await list(key);
    expect(page.suppressions.map((entry) => entry.key).sort()).toEqual(body.keys.flat().sort());
    for (const entry of page.suppressions) expect(entry.key).toMatch(/^[0-9a-f]{64}$/);
    // Nothing but hex keys and dates (a key's hex digits may spell "ada" by chance: they are left out).
    expect(JSON.stringify(page).replace(/[0-9a-f]{64}/g, "")).not.toMatch(/ada|babbage|engine/i);
    // Paged like the batch list.
    const first = await list(key, "?limit=2");
    expect(first.suppressions).toHaveLength(2);
    const rest = await list(key, `?limit=2&cursor=${first.nextCursor}`);
    expect(rest).toMatchObject({ nextCursor: null });
    expect([...first.suppressions, ...rest.suppressions]).toEqual(page.suppressions);

    const removed = body.keys[0]![0]!;
    expect((await request(`${suppressions()}/${removed}`, { method: "DELETE", key })).status).toBe(204);
    await expectProblem(await request(`${suppressions()}/${removed}`, { method: "DELETE", key }), 404, "not_found");
    expect((await list(key)).suppressions.map((entry) => entry.key)).not.toContain(removed);
  });

  it("belongs to one customer: another's list is empty and their DELETE finds nothing", async () => {
    const mine = await createKey();
    const { keys } = await (
      await put(mine.key, { items: [{ linkedinUrl: "https://www.linkedin.com/in/ada-l" }] })
    ).json<{
      keys: string[][];
    }>();
    const other = await createKey();
    expect((await list(other.key)).suppressions).toEqual([]);
    await expectProblem(
      await request(`${suppressions()}/${keys[0]![0]}`, { method: "DELETE", key: other.key }),
      404,
      "not_found",
    );
  });

  it("refuses bodies that do not identify people as submit items do, naming each problem", async () => {
    const { key } = await createKey();
    const problem = await expectProblem(
      await put(key, { items: [{ email: "ok@example.com" }, { firstName: "Ada" }, { email: "nope" }] }),
      400,
      "invalid_request",
    );
    expect(problem.errors).toEqual([
      expect.objectContaining({ path: "items.1" }),
      expect.objectContaining({ path: "items.2.email" }),
    ]);
    await expectProblem(await put(key, { items: [] }), 400, "invalid_request");
    await expectProblem(await put(key, { people: [{ email: "ok@example.com" }] }), 400, "invalid_request");
    await expectProblem(
      await request(suppressions(), { method: "PUT", key, headers: { "content-type": "application/json" }, body: "{" }),
      400,
      "malformed_json",
    );
    await expectProblem(await request(`${suppressions()}?limit=0`, { key }), 400, "invalid_query");
    await expectProblem(await request(`${suppressions()}?cursor=bogus`, { key }), 400, "invalid_query");
    await expectProblem(await request(`${suppressions()}/not-a-key`, { method: "DELETE", key }), 404, "not_found");
    expect((await list(key)).suppressions).toEqual([]);
  });
});

describe("a suppressed person's items", () => {
  it("end failed with suppressed, with no provider call and no charge", async () => {
    const { key } = await createKey({ environment: "live" });
    const domain = `suppressed-${crypto.randomUUID().slice(0, 8)}.example`;
    const suppressed = { firstName: "Sam", lastName: "Private", companyDomain: domain };
    const other = {
      firstName: "Olive",
      lastName: "Public",
      companyDomain: `public-${crypto.randomUUID().slice(0, 8)}.example`,
    };
    expect(
      (await put(key, { items: [{ fullName: "sam  private", companyDomain: domain.toUpperCase() }] }, "live")).status,
    ).toBe(200);

    const batchId = await submitBatch(key, { items: [suppressed, other] }, "live");
    const batch = await waitForCompletion(key, batchId);
    expect(batch.items[0]).toMatchObject({
      status: "failed",
      error: { code: "suppressed" },
      credits: 0,
      sources: [],
      emails: [],
      phones: [],
    });
    expect(batch.items[1]).toMatchObject({ status: "completed", outcome: "found" });
    expect(batch.creditsCharged).toBe(batch.items[1]!.credits);
    // No vendor heard of the suppressed person; the other person was looked up.
    expect(await mentions(domain)).toBe(0);
    expect(await mentions(other.companyDomain)).toBeGreaterThan(0);
  });

  // Issue 34, finding 1: the list's keys are those of every name a finder could have asked with.
  it.each([
    [
      "an item that also carries another full name",
      { firstName: "Supp", lastName: "Hunter" },
      { fullName: "Supp Other", firstName: "Supp", lastName: "Hunter" },
    ],
    [
      "a name composed another way (NFC listed, NFD submitted)",
      { fullName: "Zoë Ünal".normalize("NFC") },
      { fullName: "Zoë Ünal".normalize("NFD") },
    ],
    ["a name given with a middle name", { firstName: "Ada", lastName: "Lovelace" }, { fullName: "Ada King Lovelace" }],
  ])("are suppressed whatever the finders would ask them by: %s", async (_, listed, submitted) => {
    const { key } = await createKey({ environment: "live" });
    const domain = `suppressed-${crypto.randomUUID().slice(0, 8)}.example`;
    expect((await put(key, { items: [{ ...listed, companyDomain: domain }] }, "live")).status).toBe(200);
    const batch = await waitForCompletion(
      key,
      await submitBatch(key, { items: [{ ...submitted, companyDomain: domain }] }, "live"),
    );
    expect(batch.items[0]).toMatchObject({ status: "failed", error: { code: "suppressed" }, credits: 0, sources: [] });
    expect(await mentions(domain)).toBe(0);
  });

  it("are suppressed when processed, so a suppression added after the submit still applies", async () => {
    const people = [{ email: `late-${crypto.randomUUID().slice(0, 8)}@example.com` }, { email: "kept@example.com" }];
    // Its messages vanish: the test delivers them after suppressing the first person.
    const { key, record, id } = await createStoredBatch(people, undefined, ["email"]);
    expect((await put(key, { items: [people[0]] })).status).toBe(200);

    const messages = people.map((input, index) => itemMessage(id, index, input, record.customerId));
    expect((await deliver("contact-info-items", messages)).explicitAcks).toHaveLength(2);
    const batch = await waitForCompletion(key, id);
    expect(batch.items[0]).toMatchObject({ status: "failed", error: { code: "suppressed" }, sources: [], credits: 0 });
    // The other was looked up by the sandbox, the test environment's one source.
    expect(batch.items[1]).toMatchObject({
      status: "completed",
      sources: expect.arrayContaining([{ name: "sandbox", outcome: "found" }]),
    });
  });
});
