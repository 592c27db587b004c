import { describe, expect, it } from "vitest";
import { until } from "../until";
import { clientTestServer } from "./server";

// HubSpot misbehaving, against `wrangler dev` (the fake on 127.0.0.1, test/fakes/hubspot-faults.ts):
// pages that never end and a body that stalls are HubSpot's fault, said within 30 s as a 502 with
// Retry-After; the reading ends after a client hangs up; and a preview made on one portal is not
// applied on another.
const running = clientTestServer();
const MEMBERSHIPS = "GET /crm/v3/lists/{listId}/memberships";
const SUBMIT_DEADLINE_MS = 30_000;

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${running.server.url}/v2/test${path}`, {
    ...init,
    headers: { "x-api-key": running.key, "content-type": "application/json", ...init.headers },
  });
const fake = (path: string, body?: unknown) =>
  fetch(
    `${running.hubspotUrl}/__fake/${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
  );
const calls = async (token: string) =>
  ((await (await fake(`calls/${token}`)).json()) as Record<string, number>)[MEMBERSHIPS] ?? 0;

const contacts = ["301", "302"].map((id, n) => ({
  id,
  properties: { firstname: `Grace${n}`, lastname: "Hopper", website: `cobol${n}.example` },
}));

/** A portal of its own, connected to the key (which each test reconnects: one HubSpot connection a key). */
async function portal(fault?: string): Promise<string> {
  const token = `pat-na1-${crypto.randomUUID()}`;
  await fake("portals", { token, contacts, lists: { "5": ["301", "302"] } });
  const connected = await api("/integrations/hubspot", { method: "PUT", body: JSON.stringify({ token }) });
  expect(connected.status).toBe(200);
  if (fault) await fake("fault", { token, fault });
  return token;
}

const submitList = (signal?: AbortSignal) =>
  api("/person/contact-info", {
    method: "POST",
    body: JSON.stringify({ source: { provider: "hubspot", listId: "5" } }),
    ...(signal ? { signal } : {}),
  });

async function expectHubspotFault(response: Response) {
  expect(response.status).toBe(502);
  expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
  const body = (await response.json()) as { code: string; detail: string };
  expect(body.code).toBe("crm_bad_answer");
  expect(body.detail).toMatch(/^hubspot /);
}

describe("HubSpot misbehaving, against wrangler dev", () => {
  it("pages that never end: a 502 within 30 s, after the cap of pages (83)", async () => {
    const token = await portal("endless-short");
    await expectHubspotFault(await submitList(AbortSignal.timeout(SUBMIT_DEADLINE_MS)));
    expect(await calls(token)).toBe(83);
  });

  it("a body that stalls, or trickles, past CRM_TIMEOUT_MS: a 502 within 30 s", async () => {
    for (const fault of ["stall", "trickle"]) {
      await portal(fault);
      await expectHubspotFault(await submitList(AbortSignal.timeout(SUBMIT_DEADLINE_MS)));
    }
  });

  // The Worker stops reading when its request's signal aborts (enable_request_signal; unit/crm-http.test.ts,
  // "readPages"), but `wrangler dev` does not abort the Worker's request when its client hangs up: here the
  // reading is seen to end by itself, at the cap, where it went on for ever before.
  it("a client that hangs up: the reading of the list still ends, at the cap", async () => {
    const token = await portal("slow-pages");
    const hangUp = new AbortController();
    const answer = submitList(hangUp.signal).catch((error: unknown) => error);
    await until(() => calls(token), { what: "the list being read", done: (count) => count >= 3 });
    hangUp.abort();
    expect(await answer).toBeInstanceOf(Error);
    // A page comes every 50 ms while the reading goes on: it has ended once three reads, 300 ms apart, agree.
    const seen: number[] = [];
    const ended = await until(
      async () => {
        seen.push(await calls(token));
        return seen.slice(-3);
      },
      { what: "the reading ended", done: (last) => last.length === 3 && new Set(last).size === 1, intervalMs: 300 },
    );
    expect(ended[0]).toBeLessThanOrEqual(83);
  });

  it("a preview made on one portal is not applied on another: 409 crm_account_changed, nothing written there", async () => {
    const first = await portal();
    const submitted = await submitList();
    expect(submitted.status).toBe(202);
    const { batchId } = (await submitted.json()) as { batchId: string };
    await until(
      async () => ((await (await api(`/person/contact-info/${batchId}?limit=1`)).json()) as { status: string }).status,
      {
        what: "the list's batch completed",
        done: (status) => status === "completed",
      },
    );
    const started = await api("/crm-syncs", { method: "POST", body: JSON.stringify({ batchId, provider: "hubspot" }) });
    const { id } = (await started.json()) as { id: string };
    await until(async () => ((await (await api(`/crm-syncs/${id}`)).json()) as { status: string }).status, {
      what: "the preview completed",
      done: (status) => status === "completed",
    });

    const second = await portal();
    const refused = await api(`/crm-syncs/${id}/apply`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe("crm_account_changed");
    const untouched = (await (await fake(`contacts/${second}/301`)).json()) as { properties: Record<string, string> };
    expect(untouched.properties.email).toBeUndefined();
    expect(((await (await api(`/crm-syncs/${id}`)).json()) as { status: string }).status).toBe("completed");
    expect(first).not.toBe(second);
  });
});
