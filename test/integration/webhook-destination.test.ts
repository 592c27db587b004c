import { describe, expect, it } from "vitest";
import { createKey, expectProblem, getStatus, person, submit, submitBatch, until } from "../helpers";

// Webhook names checked where they resolve (issue 46, item 8), against the fake DNS-over-HTTPS
// resolver (doh.test, test/fakes/upstreams.ts), which answers loopback and private addresses for
// public-looking names: refused in live when the batch is created, and again before each delivery.

type Delivery = { body: string };
const deliveriesTo = async (path: string) => (await fetch(`https://hooks.test/__deliveries${path}`)).json<Delivery[]>();
const unique = () => crypto.randomUUID();
const liveKey = () =>
  createKey({ environment: "live", rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
const someone = () => person({ companyDomain: `${unique()}.com` });

function webhookSettled(key: string, batchId: string) {
  return until(() => getStatus(key, batchId, "?limit=1"), {
    what: `batch ${batchId}'s webhook delivered or failed`,
    done: (status) => status.webhook?.state === "delivered" || status.webhook?.state === "failed",
    timeoutMs: 15_000,
  });
}

describe("a live webhook URL whose name resolves inside", () => {
  it.each([
    ["https://localtest.me/hook", "127.0.0.1"],
    ["https://127.0.0.1.nip.io/hook", "127.0.0.1"],
    ["https://10.1.2.3.nip.io/hook", "10.1.2.3"],
    [`https://private-v6.${unique()}.hooks.example.com/hook`, "fd00::1"],
    [`https://shared.${unique()}.hooks.example.com/hook`, "100.64.1.1"],
    [`https://metadata.${unique()}.hooks.example.com/hook`, "169.254.169.254"],
    // Its AAAA lookup fails: the A answer is enough to refuse it.
    [`https://halfdown.${unique()}.hooks.example.com/hook`, "10.0.0.9"],
  ])("%s is a 400 naming webhookUrl and the address", async (webhookUrl, address) => {
    const { key } = await liveKey();
    const problem = await expectProblem(
      await submit(key, { items: [someone()], webhookUrl }, "live"),
      400,
      "invalid_request",
    );
    expect(problem.errors).toEqual([
      {
        path: "webhookUrl",
        message: `must not resolve to a loopback, private, link-local, shared or other special-purpose address (it resolves to ${address})`,
      },
    ]);
  });
});

describe("a live webhook URL with a special-use or private suffix", () => {
  it.each(["hooks.test", "nas.home", "api.svc", "hidden.onion", "erp.corp", "x.example", "x.invalid", "files.lan"])(
    "https://%s/hook is a 400, as text",
    async (host) => {
      const { key } = await liveKey();
      const response = await submit(key, { items: [someone()], webhookUrl: `https://${host}/hook` }, "live");
      const problem = await expectProblem(response, 400, "invalid_request");
      expect(problem.errors).toEqual([{ path: "webhookUrl", message: "must name a public host" }]);
    },
  );
});

describe("a live webhook URL whose name resolves outside", () => {
  it("is accepted and delivered", async () => {
    const { key } = await liveKey();
    const path = `/ok/${unique()}`;
    const webhookUrl = `https://${unique()}.hooks.example.com${path}`;
    const batchId = await submitBatch(key, { items: [someone()], webhookUrl }, "live");
    expect((await webhookSettled(key, batchId)).webhook).toMatchObject({
      state: "delivered",
      attempts: 1,
      refused: null,
    });
    expect(await deliveriesTo(path)).toHaveLength(1);
  });

  it("is accepted when the resolver cannot answer, and not sent to while it cannot", async () => {
    const { key } = await liveKey();
    const path = `/ok/${unique()}`;
    const webhookUrl = `https://dnsdown.${unique()}.hooks.example.com${path}`;
    const batchId = await submitBatch(key, { items: [someone()], webhookUrl }, "live");
    // Three attempts, none sent: the check could not say where the name leads.
    expect((await webhookSettled(key, batchId)).webhook).toMatchObject({
      state: "failed",
      attempts: 3,
      lastStatus: null,
    });
    expect(await deliveriesTo(path)).toEqual([]);
  });
});

describe("a live webhook URL re-pointed inside after the batch was created (DNS rebinding)", () => {
  it("is refused at delivery: recorded failed after one attempt, never sent, not retried", async () => {
    const { key } = await liveKey();
    const path = `/ok/${unique()}`;
    const webhookUrl = `https://rebind.${unique()}.hooks.example.com${path}`;
    const batchId = await submitBatch(key, { items: [someone()], webhookUrl }, "live");
    expect((await webhookSettled(key, batchId)).webhook).toEqual({
      url: webhookUrl,
      state: "failed",
      attempts: 1,
      lastStatus: null,
      refused:
        "must not resolve to a loopback, private, link-local, shared or other special-purpose address (it resolves to 127.0.0.1)",
    });
    expect(await deliveriesTo(path)).toEqual([]);
  });
});

describe("test keeps loopback for local receivers", () => {
  it("accepts and delivers to 127.0.0.1", async () => {
    const { key } = await createKey({ rateLimits: { contact_info_status: { limit: 1000, windowSeconds: 60 } } });
    const path = `/ok/${unique()}`;
    const batchId = await submitBatch(key, { items: [person()], webhookUrl: `http://127.0.0.1:8787${path}` });
    expect((await webhookSettled(key, batchId)).webhook).toMatchObject({ state: "delivered" });
    expect(await deliveriesTo(path)).toHaveLength(1);
  });
});
