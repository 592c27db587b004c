// Calls of the webhook endpoints and delivery log routes through the Worker's fetch, and what the fake
// receivers (fakes/webhook-receiver.ts, at https://hooks.test) were sent.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { webhookHub } from "../src/batch/events/webhook-hub-stub";
import { request } from "./api-calls";
import { ownerOf } from "./test-keys";

export type ReceivedDelivery = { headers: Record<string, string>; body: string };
export type LoggedDelivery = {
  id: string;
  endpointId: string;
  status: string;
  type: string;
  nextAttemptAt: string | null;
  attempts: { statusCode: number | null; error: string | null }[];
};

/** Rate limits no test of these routes reaches. */
export const hookLimits = {
  contact_info_request: { limit: 1000, windowSeconds: 60 },
  contact_info_status: { limit: 1000, windowSeconds: 60 },
};

/** A fresh receiver path under `kind` (ok, fail-once, always-500, …). */
export const receiverPath = (kind: string) => `/${kind}/${crypto.randomUUID()}`;

export const receivedAt = async (path: string) =>
  (await fetch(`https://hooks.test/__deliveries${path}`)).json<ReceivedDelivery[]>();

export function hookCall(key: string, method: string, path: string, body?: unknown) {
  return request(`/v2/test${path}`, {
    method,
    key,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

export async function createEndpoint(key: string, body: { url: string; events: string[]; description?: string }) {
  const response = await hookCall(key, "POST", "/webhook-endpoints", body);
  expect(response.status).toBe(201);
  return response.json<{ id: string; secret: string; url: string; status: string; events: string[] }>();
}

export async function deliveryLog(key: string, query = "") {
  const response = await hookCall(key, "GET", `/webhook-deliveries${query}`);
  expect(response.status).toBe(200);
  return response.json<{ deliveries: LoggedDelivery[]; nextCursor: string | null }>();
}

/** A webhook.test event to the endpoint: its delivery's id. */
export async function sendTestEvent(key: string, endpointId: string): Promise<string> {
  const response = await hookCall(key, "POST", `/webhook-endpoints/${endpointId}/test`);
  expect(response.status).toBe(202);
  return (await response.json<{ id: string }>()).id;
}

/** The WebhookHub of the key's customer, to run its alarm. */
export const hubOfKey = (key: string) => webhookHub(env, ownerOf(key));
