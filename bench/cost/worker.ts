// npm run bench:cost's Worker: the service as it is (src/bench-api.ts hands over its entry and its
// Durable Object classes), behind the meters of meter.ts; GET /__cost answers the tally since the
// last one and starts a new one. Never deployed: bench/cost.ts serves it with the service's
// wrangler.toml, its `main` pointed here.
import {
  Account,
  ContactInfoBatch,
  CrmSync,
  McpConnections,
  McpSession,
  RateLimiter,
  service,
  VendorCeiling,
  VendorGovernor,
  WebhookHub,
  WebhookSender,
} from "../../src/bench-api";
import { meteredBatch, meteredEnv } from "./bindings";
import { countFetch, takeTally } from "./meter";
import { meteredClass } from "./objects";

// The producer bindings and their queues (wrangler.toml).
const QUEUE_BINDINGS = {
  ITEM_QUEUE: "contact-info-items",
  ITEM_DEAD_LETTER_QUEUE: "contact-info-items-dlq",
  WEBHOOK_QUEUE: "contact-info-webhooks",
  WEBHOOK_DEAD_LETTER_QUEUE: "contact-info-webhooks-dlq",
};

// biome-ignore lint/suspicious/noExplicitAny: as meteredClass takes them.
const metered = <C extends new (...args: any[]) => object>(name: string, cls: C) =>
  meteredClass(name, cls, QUEUE_BINDINGS);

export const MeteredAccount = metered("Account", Account);
export const MeteredBatch = metered("ContactInfoBatch", ContactInfoBatch);
// Every class wrangler.toml binds: one missing, and the first submit waits forever on its binding.
export const MeteredCrmSync = metered("CrmSync", CrmSync);
export const MeteredMcpConnections = metered("McpConnections", McpConnections);
export const MeteredMcpSession = metered("McpSession", McpSession);
export const MeteredRateLimiter = metered("RateLimiter", RateLimiter);
export const MeteredVendorCeiling = metered("VendorCeiling", VendorCeiling);
export const MeteredVendorGovernor = metered("VendorGovernor", VendorGovernor);
export const MeteredWebhookHub = metered("WebhookHub", WebhookHub);
export const MeteredWebhookSender = metered("WebhookSender", WebhookSender);
export {
  MeteredAccount as Account,
  MeteredBatch as ContactInfoBatch,
  MeteredCrmSync as CrmSync,
  MeteredMcpConnections as McpConnections,
  MeteredMcpSession as McpSession,
  MeteredRateLimiter as RateLimiter,
  MeteredVendorCeiling as VendorCeiling,
  MeteredVendorGovernor as VendorGovernor,
  MeteredWebhookHub as WebhookHub,
  MeteredWebhookSender as WebhookSender,
};

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/__cost") return Response.json(takeTally());
    countFetch();
    return service.fetch(request, meteredEnv(env, QUEUE_BINDINGS), ctx);
  },
  queue(batch, env) {
    return service.queue(meteredBatch(batch), meteredEnv(env, QUEUE_BINDINGS));
  },
} satisfies ExportedHandler<Env, unknown>;
