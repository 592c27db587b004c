import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, clientFor, restCall } from "./helpers";
import { type McpTestServer, startMcpTestServer } from "./server";

// enrich_contact_info waits about 25 s for its batch; a batch not done by then is answered as far as it
// got, with its batchId to read the rest. Here retries wait a minute (the operator's backoff,
// RETRY_BASE_DELAY_SECONDS), so a `flaky.test` item (it fails its first attempt) outlasts the wait.
let running: McpTestServer;
const clients: Client[] = [];

beforeAll(async () => {
  running = await startMcpTestServer({ RETRY_BASE_DELAY_SECONDS: "60", RETRY_MAX_DELAY_SECONDS: "120" });
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await running?.server.stop();
});

describe("enrich_contact_info, when its batch outlasts the wait", () => {
  it("answers what is done, status processing, and the batchId to read the rest with", async () => {
    const client = await clientFor(running, clients, "capped");
    const result = await call(client, "enrich_contact_info", {
      items: [
        { fullName: "Quick Person", companyDomain: "quick.example" },
        { fullName: "Flaky Person", companyDomain: "flaky.test" },
      ],
      maxCredits: 100,
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      batchId: string;
      status: string;
      totalItems: number;
      items: { index: number; status: string }[];
      message: string;
    };
    expect(answer).toMatchObject({ status: "processing", totalItems: 2 });
    expect(answer.items.find((item) => item.index === 1)).toMatchObject({ status: "pending" });
    expect(answer.message).toContain(`get_contact_info_batch {"batchId": "${answer.batchId}"}`);
    // The batch is the caller's, readable through either door.
    const page = await call(client, "get_contact_info_batch", { batchId: answer.batchId });
    expect(page.structuredContent).toMatchObject({ id: answer.batchId, totalItems: 2 });
    expect(await restCall(running, "capped", `/person/contact-info/${answer.batchId}?limit=1`)).toMatchObject({
      id: answer.batchId,
    });
  }, 120_000);
});
