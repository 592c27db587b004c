// The operations behind /v2/{environment}/webhook-endpoints and …/webhook-deliveries, whatever the door.
import type * as z from "zod";
import type { Environment } from "../base/environment";
import { type Tenant, tenantOf } from "../base/tenant";
import { webhookHub } from "../batch/events/webhook-hub-stub";
import { badRequest, notFound, tooManyWebhookEndpoints } from "../http/errors";
import { describeErrors, fieldErrorOf } from "../http/field-errors";
import { parseQuery } from "../http/query";
import { operation } from "../rate-limit/operation";
import { pageStart } from "./delivery-log";
import { MAX_ENDPOINTS } from "./endpoint-events";
import {
  createEndpointSchema,
  type DeliveryView,
  deliveryQuerySchema,
  type EndpointView,
  recoverSchema,
  updateEndpointSchema,
} from "./views";
import { destinationOf } from "./webhook-destination";

const DEFAULT_DELIVERY_PAGE = 50;

/** Who calls (operations/caller.ts's Caller, as far as these read it: that room is above this one). */
type Caller = { env: Env; apiKey: Tenant; environment: Environment };

const hubOf = ({ env, apiKey }: Caller) => webhookHub(env, tenantOf(apiKey));

const noSuchEndpoint = () => notFound("No such webhook endpoint for this customer and environment.");
const noSuchDelivery = () => notFound("No such webhook delivery for this customer and environment.");

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => fieldErrorOf(issue));
  throw badRequest("invalid_request", `Invalid body: ${describeErrors(errors)}.`, errors);
}

/**
 * The endpoint URL rules are a submit's webhookUrl's, checked by the same function: its text, then (in
 * live) where its name resolves. A resolver that cannot answer lets it be saved: each delivery checks again.
 */
async function checkUrl(url: string | undefined, caller: Caller): Promise<void> {
  if (url === undefined) return;
  const destination = await destinationOf(caller.env, url, caller.environment);
  if (destination.kind !== "refused") return;
  const problem = destination.problem;
  throw badRequest("invalid_request", `url ${problem}.`, [{ path: "url", message: problem }]);
}

export const createEndpoint = operation(
  "contact_info_request",
  async function createEndpoint(caller: Caller, body: unknown) {
    const input = parseBody(createEndpointSchema, body);
    await checkUrl(input.url, caller);
    const created = await hubOf(caller).createEndpoint(input);
    if (!created) throw tooManyWebhookEndpoints(MAX_ENDPOINTS);
    return created;
  },
);

export const listEndpoints = operation(
  "contact_info_status",
  async (caller: Caller): Promise<{ endpoints: EndpointView[] }> => ({
    endpoints: await hubOf(caller).listEndpoints(),
  }),
);

export const readEndpoint = operation(
  "contact_info_status",
  async function readEndpoint(caller: Caller, id: string): Promise<EndpointView> {
    return (await hubOf(caller).getEndpoint(id)) ?? throwError(noSuchEndpoint());
  },
);

export const updateEndpoint = operation(
  "contact_info_request",
  async function updateEndpoint(caller: Caller, id: string, body: unknown): Promise<EndpointView> {
    const patch = parseBody(updateEndpointSchema, body);
    const hub = hubOf(caller);
    // A missing endpoint is a 404 before a bad URL is a 400, as for any other path of another customer's.
    if (!(await hub.getEndpoint(id))) throw noSuchEndpoint();
    await checkUrl(patch.url, caller);
    return (await hub.updateEndpoint(id, patch)) ?? throwError(noSuchEndpoint());
  },
);

export const deleteEndpoint = operation(
  "contact_info_request",
  async function deleteEndpoint(caller: Caller, id: string): Promise<void> {
    if (!(await hubOf(caller).deleteEndpoint(id))) throw noSuchEndpoint();
  },
);

export const rotateEndpointSecret = operation(
  "contact_info_request",
  async function rotateEndpointSecret(caller: Caller, id: string): Promise<{ secret: string }> {
    const secret = await hubOf(caller).rotateSecret(id);
    if (secret === null) throw noSuchEndpoint();
    return { secret };
  },
);

export const testEndpoint = operation(
  "contact_info_request",
  async function testEndpoint(caller: Caller, id: string): Promise<DeliveryView> {
    const hub = hubOf(caller);
    const deliveryId = await hub.sendTest(id);
    if (deliveryId === null) throw noSuchEndpoint();
    const { payload: _, ...delivery } = (await hub.getDelivery(deliveryId)) ?? throwError(noSuchDelivery());
    return delivery;
  },
);

export const recoverEndpoint = operation(
  "contact_info_request",
  async function recoverEndpoint(caller: Caller, id: string, body: unknown): Promise<{ count: number }> {
    const { since } = parseBody(recoverSchema, body);
    const count = await hubOf(caller).recover(id, new Date(since).toISOString());
    if (count === null) throw noSuchEndpoint();
    return { count };
  },
);

export const listDeliveries = operation(
  "contact_info_status",
  async function listDeliveries(caller: Caller, query: Record<string, string>) {
    const { limit = DEFAULT_DELIVERY_PAGE, since, cursor, ...filters } = parseQuery(deliveryQuerySchema, query);
    return hubOf(caller).listDeliveries({
      ...filters,
      limit,
      before: pageStart(cursor),
      since: since === undefined ? undefined : new Date(since).toISOString(),
    });
  },
);

export const readDelivery = operation("contact_info_status", async function readDelivery(caller: Caller, id: string) {
  return (await hubOf(caller).getDelivery(id)) ?? throwError(noSuchDelivery());
});

export const redeliver = operation(
  "contact_info_request",
  async function redeliver(caller: Caller, id: string): Promise<void> {
    if (!(await hubOf(caller).redeliver(id))) throw noSuchDelivery();
  },
);

function throwError(error: Error): never {
  throw error;
}
