import { adminApi, isAdminPath } from "./admin/admin-api";
import { app } from "./app";
import { log } from "./base/log";
import { MCP_PATH, serveMcp } from "./mcp/door";
import { serveOAuth } from "./mcp/oauth/oauth-door";
import { isOAuthPath, KEY_DOOR_PATH } from "./mcp/oauth/paths";
import { consumeDeadLetters, consumeItems } from "./queue/consumer";
import { QUEUES } from "./queue/names";
import { type QueueConsumer, validatingConsumer } from "./queue/validating-consumer";
import { abandonWebhooks, deliverWebhooks } from "./queue/webhook-consumer";
import { itemMessageSchema } from "./queue-messages/item-message";
import { webhookMessageSchema } from "./queue-messages/webhook-message";
import { apiOperations } from "./routes/api-routes";

export { Account } from "./account/account";
export { ContactInfoBatch } from "./batch/contact-info-batch";
export { McpConnections } from "./connections/mcp-connections";
export { CrmSync } from "./crm/crm-sync";
export { McpSession } from "./mcp/mcp-session";
export { RateLimiter } from "./rate-limit/rate-limiter";
export { VendorCeiling } from "./vendor-governor/vendor-ceiling";
export { VendorGovernor } from "./vendor-governor/vendor-governor";
export { WebhookHub } from "./webhooks/webhook-hub";
export { WebhookSender } from "./webhooks/webhook-sender";

const consumers = new Map<string, QueueConsumer>([
  [QUEUES.items, validatingConsumer(itemMessageSchema, consumeItems)],
  [QUEUES.itemsDeadLetter, validatingConsumer(itemMessageSchema, consumeDeadLetters)],
  [QUEUES.webhooks, validatingConsumer(webhookMessageSchema, deliverWebhooks)],
  [QUEUES.webhooksDeadLetter, validatingConsumer(webhookMessageSchema, abandonWebhooks)],
]);

export default {
  // The admin API is a Hono app of its own, so the public app (and its OpenAPI document) never lists it;
  // the MCP server speaks JSON-RPC over Streamable HTTP, through the SDK's transport, beside both, at two
  // doors: /mcp (an OAuth protected resource, or an API key in x-api-key) and /mcp/key (an API key only);
  // its OAuth authorization server and consent page answer their own paths.
  fetch: (request, env, ctx) => {
    if (isAdminPath(request.url)) return adminApi.fetch(request, env, ctx);
    const { pathname } = new URL(request.url);
    if (pathname === MCP_PATH || pathname === KEY_DOOR_PATH) return serveMcp(request, env, ctx, apiOperations);
    if (isOAuthPath(pathname)) return serveOAuth(request, env, ctx);
    return app.fetch(request, env, ctx);
  },
  async queue(batch, env) {
    const consume = consumers.get(batch.queue);
    if (consume) return consume(batch, env);
    // A queue bound in wrangler.toml but unknown here: leave its messages for a fixed deploy.
    log("unknown_queue", { queue: batch.queue, messages: batch.messages.length });
    batch.retryAll();
  },
} satisfies ExportedHandler<Env, unknown>;
