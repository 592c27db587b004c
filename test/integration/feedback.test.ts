import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batchStub } from "../../src/batch/stub";
import type { FeedbackReceipt } from "../../src/credits/feedback";
import {
  createKey,
  expectProblem,
  getStatus,
  request,
  submitBatch,
  until,
  usageOf,
  waitForCompletion,
} from "../helpers";

const DAY_MS = 86_400_000;
// The sandbox finds a work email (1 credit, its verification free here) and a mobile (10) for this domain.
const ada = { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" };

const feedback = (key: string, body: unknown, environment = "test") =>
  request(`/v2/${environment}/feedback`, {
    key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** A completed batch of one item for Ada: its id, and the email and phone it delivered. */
async function deliveredAda(key: string) {
  const batchId = await submitBatch(key, { items: [ada] });
  const { items } = await waitForCompletion(key, batchId);
  const [item] = items;
  const email = item?.emails[0]?.address;
  const phone = item?.phones[0]?.number;
  if (!email || !phone || item?.credits !== 11) throw new Error("the sandbox no longer delivers Ada's email and phone");
  return { batchId, email, phone };
}

const usageTotals = async (key: string) => (await usageOf(key)).totals;

describe("POST /v2/{environment}/feedback", () => {
  it("refunds a contact's price once, shows it on the batch and in usage, and counts it against its source", async () => {
    const { key } = await createKey();
    const { batchId, email, phone } = await deliveredAda(key);

    const bounced = await feedback(key, { batchId, index: 0, kind: "email_bounced", value: email.toUpperCase() });
    expect(bounced.status).toBe(200);
    expect(await bounced.json<FeedbackReceipt>()).toEqual({
      batchId,
      index: 0,
      kind: "email_bounced",
      contact: "email",
      source: "sandbox",
      refundedCredits: 1,
      reason: null,
      refundedBefore: 0,
      creditsRefunded: 1,
      doNotDeliver: true,
    });
    const again = await (
      await feedback(key, { batchId, index: 0, kind: "wrong_person", value: email })
    ).json<FeedbackReceipt>();
    expect(again).toMatchObject({
      refundedCredits: 0,
      reason: "already_reported",
      refundedBefore: 1,
      creditsRefunded: 1,
    });
    const wrongPhone = await (
      await feedback(key, { batchId, index: 0, kind: "phone_wrong", value: phone })
    ).json<FeedbackReceipt>();
    expect(wrongPhone).toMatchObject({ contact: "phone", refundedCredits: 10, reason: null, creditsRefunded: 11 });

    const status = await getStatus(key, batchId);
    expect({ charged: status.creditsCharged, refunded: status.creditsRefunded }).toEqual({ charged: 11, refunded: 11 });
    const totals = await until(() => usageTotals(key), {
      what: "the refunds in usage",
      done: (usage) => usage.creditsRefunded === 11,
    });
    expect(totals.credits).toBe(11);
    expect(totals.sources.sandbox).toMatchObject({ reported: 2, creditsRefunded: 11 });
  });

  it("refunds nothing past the window, with the reason, and lists the value all the same", async () => {
    const { key } = await createKey();
    const { batchId, email } = await deliveredAda(key);
    // Delivered 31 days ago, in the batch's own state: a faked clock would also let the batch's next alarm
    // find its retention (30 days by default, the window's length) over, and answer 410.
    await runInDurableObject(batchStub(env, batchId), (_, state) => {
      state.storage.sql.exec("UPDATE items SET finished_at = ?", new Date(Date.now() - 31 * DAY_MS).toISOString());
    });
    const late = await (
      await feedback(key, { batchId, index: 0, kind: "email_bounced", value: email })
    ).json<FeedbackReceipt>();
    expect(late).toMatchObject({ refundedCredits: 0, reason: "refund_window_closed", doNotDeliver: true });
    expect((await getStatus(key, batchId)).creditsRefunded).toBe(0);
    // The value is on the list: the same person found again comes back without it.
    const later = await submitBatch(key, { items: [ada] });
    const [item] = (await waitForCompletion(key, later)).items;
    expect(item?.emails).toEqual([]);
  });

  it("never delivers a reported value to that customer again, and charges nothing for it; other customers still get it", async () => {
    const { key } = await createKey();
    const { batchId, email, phone } = await deliveredAda(key);
    await feedback(key, { batchId, index: 0, kind: "email_bounced", value: email });
    const later = await submitBatch(key, { items: [ada, { ...ada, firstName: "Augusta" }] });
    const [again, augusta] = (await waitForCompletion(key, later)).items;
    expect(again).toMatchObject({ outcome: "found", emails: [], credits: 10 });
    expect(again?.phones.map(({ number }) => number)).toEqual([phone]);
    expect(augusta?.emails.length).toBe(1);
    // Both contacts listed: the item finds nothing it may deliver, and costs nothing.
    await feedback(key, { batchId, index: 0, kind: "wrong_person", value: phone });
    const third = await submitBatch(key, { items: [ada] });
    expect((await waitForCompletion(key, third)).items[0]).toMatchObject({ outcome: "not_found", credits: 0 });
    const other = await createKey();
    expect((await deliveredAda(other.key)).email).toBe(email);
  });

  it("withholds a reported value from the customer's cached result too (live)", async () => {
    const { key } = await createKey({ environment: "live" });
    // Met by no other test, so its cache entry is this test's alone.
    const person = {
      firstName: "Erin",
      lastName: `Bounce${crypto.randomUUID().slice(0, 8)}`,
      companyDomain: "erasure.example",
    };
    const batchId = await submitBatch(key, { items: [person] }, "live");
    const [found] = (await waitForCompletion(key, batchId)).items;
    const [email, ...others] = found?.emails.map(({ address }) => address) ?? [];
    if (!email || found?.fromCache !== false) throw new Error("the fake vendors no longer find this person");
    const receipt = await (
      await feedback(key, { batchId, index: 0, kind: "email_bounced", value: email }, "live")
    ).json<FeedbackReceipt>();
    expect(receipt.refundedCredits).toBeGreaterThan(0);
    const again = (await waitForCompletion(key, await submitBatch(key, { items: [person] }, "live"))).items[0];
    expect(again).toMatchObject({ fromCache: true, credits: 0 });
    expect(again?.emails.map(({ address }) => address)).toEqual(others);
  });

  it("answers 400 not_delivered for a value the item was not given, or of another kind", async () => {
    const { key } = await createKey();
    const { batchId, email, phone } = await deliveredAda(key);
    for (const body of [
      { batchId, index: 0, kind: "email_bounced", value: "someone.else@analytical.example" },
      { batchId, index: 0, kind: "email_bounced", value: phone },
      { batchId, index: 0, kind: "phone_wrong", value: email },
      { batchId, index: 1, kind: "email_bounced", value: email },
    ])
      await expectProblem(await feedback(key, body), 400, "not_delivered");
    await expectProblem(
      await feedback(key, { batchId, index: -1, kind: "bounced", value: "" }),
      400,
      "invalid_request",
    );
    expect((await getStatus(key, batchId)).creditsRefunded).toBe(0);
  });

  it("answers 404 for another customer's batch, exactly as for a missing one", async () => {
    const owner = await createKey();
    const other = await createKey();
    const { batchId, email } = await deliveredAda(owner.key);
    const body = { index: 0, kind: "email_bounced", value: email };
    const theirs = await feedback(other.key, { ...body, batchId });
    const missing = await feedback(other.key, { ...body, batchId: crypto.randomUUID() });
    expect(theirs.status).toBe(404);
    const [a, b] = [await theirs.json<Record<string, unknown>>(), await missing.json<Record<string, unknown>>()];
    expect({ ...a, requestId: "" }).toEqual({ ...b, requestId: "" });
    expect((await getStatus(owner.key, batchId)).creditsRefunded).toBe(0);
  });
});

describe("GET and DELETE /v2/{environment}/privacy/do-not-deliver", () => {
  const doNotDeliver = (environment = "test") => `/v2/${environment}/privacy/do-not-deliver`;
  const list = async (key: string, query = "") => {
    const response = await request(`${doNotDeliver()}${query}`, { key });
    expect(response.status).toBe(200);
    return response.json<{ doNotDeliver: { key: string; createdAt: string }[]; nextCursor: string | null }>();
  };

  it("lists the reported values' keyed hashes newest first, paged, and removing one delivers (and charges) it again", async () => {
    const { key } = await createKey();
    const { batchId, email, phone } = await deliveredAda(key);
    expect(await list(key)).toEqual({ doNotDeliver: [], nextCursor: null });
    await feedback(key, { batchId, index: 0, kind: "email_bounced", value: email });
    await feedback(key, { batchId, index: 0, kind: "phone_wrong", value: phone });
    const both = await list(key);
    expect(both.doNotDeliver).toHaveLength(2);
    for (const entry of both.doNotDeliver) {
      expect(entry.key).toMatch(/^[0-9a-f]{64}$/);
      expect(entry.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    expect(JSON.stringify(both)).not.toContain(email);
    const first = await list(key, "?limit=1");
    expect(first.nextCursor).not.toBeNull();
    const rest = await list(key, `?limit=1&cursor=${first.nextCursor}`);
    expect([...first.doNotDeliver, ...rest.doNotDeliver]).toEqual(both.doNotDeliver);
    expect(rest.nextCursor).toBeNull();

    for (const entry of both.doNotDeliver) {
      expect((await request(`${doNotDeliver()}/${entry.key}`, { method: "DELETE", key })).status).toBe(204);
      await expectProblem(await request(`${doNotDeliver()}/${entry.key}`, { method: "DELETE", key }), 404, "not_found");
    }
    expect((await list(key)).doNotDeliver).toEqual([]);
    const again = await submitBatch(key, { items: [ada] });
    const [item] = (await waitForCompletion(key, again)).items;
    expect(item).toMatchObject({ outcome: "found", credits: 11 });
    expect(item?.emails[0]?.address).toBe(email);
  });

  it("is each customer's own: another's key is a 404, and bad queries and keys are refused", async () => {
    const { key } = await createKey();
    const { batchId, email } = await deliveredAda(key);
    await feedback(key, { batchId, index: 0, kind: "email_bounced", value: email });
    const [entry] = (await list(key)).doNotDeliver;
    const other = await createKey();
    expect((await list(other.key)).doNotDeliver).toEqual([]);
    await expectProblem(
      await request(`${doNotDeliver()}/${entry!.key}`, { method: "DELETE", key: other.key }),
      404,
      "not_found",
    );
    expect((await list(key)).doNotDeliver).toEqual([entry]);
    await expectProblem(await request(`${doNotDeliver()}?limit=0`, { key }), 400, "invalid_query");
    await expectProblem(await request(`${doNotDeliver()}?cursor=bogus`, { key }), 400, "invalid_query");
    await expectProblem(await request(`${doNotDeliver()}?other=1`, { key }), 400, "invalid_query");
    await expectProblem(await request(`${doNotDeliver()}/not-a-key`, { method: "DELETE", key }), 404, "not_found");
  });
});
