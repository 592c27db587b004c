// What the benchmarks' Workers (bench/*/worker.ts) use of the Worker's source: the size of
// the service's queue messages, which the floors copy, and the vendor governor object, which
// bench/governor measures as it is. The Node side of the tools imports src/tools-api.ts;
// this one loads Worker modules (cloudflare:workers), so it is apart.

export type { RateWindow } from "./base/vendor-limits";
// For bench/cost/ (npm run bench:cost): the whole Worker and its objects, served behind meters that
// count what the platform bills. Nothing in the Worker itself counts: production pays for none of it.
export {
  Account,
  ContactInfoBatch,
  CrmSync,
  default as service,
  McpConnections,
  McpSession,
  RateLimiter,
  WebhookHub,
  WebhookSender,
} from "./index";
export { ITEMS_PER_MESSAGE } from "./queue-messages/item-message";
export { VendorCeiling } from "./vendor-governor/vendor-ceiling";
export { VendorGovernor } from "./vendor-governor/vendor-governor";
