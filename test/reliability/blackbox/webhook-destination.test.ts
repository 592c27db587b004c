import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../../scripts/local-server";
import { type BatchClient, batchClient, until } from "../../blackbox-helpers";
import { type LoopbackFake, serveOnLoopback } from "../../fakes/loopback";
import { fakeDns } from "../../fakes/upstreams";

// Black-box, against `wrangler dev` (issue 46, item 8): webhook names checked where they resolve,
// through a fake DNS-over-HTTPS resolver on 127.0.0.1 that answers loopback and private addresses
// for public-looking names (the table in fakes/upstreams.ts).

let server: LocalServer;
let resolver: LoopbackFake;
let live: BatchClient;
const batches = "/v2/live/person/contact-info";

beforeAll(async () => {
  resolver = await serveOnLoopback(async (_request, url) => fakeDns(url));
  let keys: ServerKey[] = [];
  server = await startLocalServer({
    prepare: async (state) => {
      keys = await seedKeys(state, [{ customerId: "cus_webhook_destination", environment: "live" }]);
    },
    vars: {
      // No vendor is asked: the directory and the pattern finder (its MX lookups answered by the fake) are enough.
      ENRICHMENT_PROVIDERS: "directory,pattern",
      DOH_URL: `${resolver.url}/dns-query`,
      RETRY_BASE_DELAY_SECONDS: "1",
      RETRY_MAX_DELAY_SECONDS: "1",
    },
  });
  live = batchClient(server, keys[0]!);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await resolver?.close();
});

const submit = (webhookUrl: string) =>
  live.call(batches, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      items: [{ firstName: "Ada", lastName: "Lovelace", companyDomain: "acme.com" }],
      webhookUrl,
    }),
  });

describe("a live webhook URL in wrangler dev", () => {
  it.each([
    ["https://localtest.me/hook", "127.0.0.1"],
    ["https://127.0.0.1.nip.io/hook", "127.0.0.1"],
    [`https://private-v6.${randomUUID()}.hooks.example.com/hook`, "fd00::1"],
    [`https://shared.${randomUUID()}.hooks.example.com/hook`, "100.64.1.1"],
  ])("%s resolving inside is a 400 naming webhookUrl", async (url, address) => {
    const response = await submit(url);
    expect(response.status).toBe(400);
    const problem = await response.json<{ code: string; errors: { path: string; message: string }[] }>();
    expect(problem.code).toBe("invalid_request");
    expect(problem.errors).toEqual([
      { path: "webhookUrl", message: expect.stringContaining(`resolves to ${address}`) },
    ]);
  });

  it.each(["hooks.test", "nas.home", "api.svc", "hidden.onion", "erp.corp"])(
    "https://%s/hook is a 400, as text",
    async (host) => {
      const response = await submit(`https://${host}/hook`);
      expect(response.status).toBe(400);
      expect((await response.json<{ errors: unknown[] }>()).errors).toEqual([
        { path: "webhookUrl", message: "must name a public host" },
      ]);
    },
  );

  it("re-pointed inside after creation is refused at delivery: failed after one attempt, no retry", async () => {
    const response = await submit(`https://rebind.${randomUUID()}.hooks.example.com/hook`);
    expect(response.status).toBe(202);
    const { batchId } = await response.json<{ batchId: string }>();
    const settled = await until(() => live.summary(batchId), {
      what: "the webhook refused at delivery",
      done: (page) => page.webhook?.state === "failed",
      timeoutMs: 60_000,
    });
    expect(settled.webhook).toMatchObject({
      state: "failed",
      attempts: 1,
      lastStatus: null,
      refused: expect.stringContaining("(it resolves to 127.0.0.1)"),
    });
    expect(server.output()).toMatch(/"event":"webhook_attempt".*"destination":"destination_refused"/);
  });
});
