export {
  type BatchSummary,
  type Client,
  type ClientOptions,
  createClient,
  type PageOptions,
  type SubmitOptions,
  type Submitted,
  type WaitOptions,
} from "./client.js";
export {
  type CrmClient,
  type CrmConnection,
  type CrmListPage,
  type CrmProvider,
  type CrmSync,
  type CrmSyncRecord,
  type CrmSyncRequest,
  createCrmClient,
} from "./crm.js";
export { sumEstimates } from "./estimates.js";
export type {
  ApiProblem,
  BatchItem,
  BatchReceipt,
  BatchStatus,
  Budget,
  Environment,
  Estimate,
  Field,
  ItemStatusFilter,
  SubmitItem,
  WebhookEvent,
} from "./paths.js";
export { type Problem, ProblemError, type UnexpectedResponse } from "./problem.js";
export { parseRateLimit, parseRetryAfter, type RateLimitState } from "./rate-limit.js";
export { type RunProgress, RunTracker } from "./run-progress.js";
