// The Worker's source as the tools outside src/ use it (scripts/ and bench/): the
// formats of the records they write into the Worker's KV stores, the limits they set,
// and the document they publish. With src/file-core/index.ts (the file core's public
// API) and src/bench-api.ts (the benchmarks' Workers) it is all they may import from src/ (test/tools/tool-imports.test.ts checks),
// so the rooms inside src/ can move without touching a tool: re-point these lines.

export type { Environment } from "./base/environment";
export { JURISDICTIONS, type Jurisdiction } from "./base/jurisdiction";
// The operators' `name=value,…` lists and rate windows, which bench/live.ts reads its --limits with.
export { nameValueEntries } from "./base/name-values";
export { parseWindows } from "./base/vendor-limits";
// The caps and pacing of event streams, which bench/stream-fairness.ts runs against.
export { ITEM_EVENTS_PER_STEP, REPLAY_STEP_PAUSE_MS } from "./batch/events/event-plan";
// The CRMs a customer may connect and what people are told of each, which scripts/crm.ts offers.
export { CRM_PROVIDERS, perCrm } from "./crm/crms";
export type { DirectoryEntry } from "./enrichment/directory";
export {
  DIRECTORY_COLUMNS,
  directoryRecords,
  directoryWrites,
  type Rejection,
  toDirectoryEntry,
} from "./enrichment/directory-import";
// Each vendor's declared price per call, which bench/live-order.ts turns calls into spend with.
export { VENDORS } from "./enrichment/vendors";
export {
  type ApiKeyRecord,
  apiKeyRecordSchema,
  apiKeyWrites,
  hashApiKey,
  issueApiKey,
  kvKey,
  type Revocation,
  revocationSchema,
} from "./keys/api-key";
export { openApiDocument } from "./openapi/document";
export { ENDPOINT_TYPES, type EndpointType } from "./rate-limit/endpoint-types";
export { MAX_STREAMS_PER_BATCH, MAX_STREAMS_PER_CUSTOMER } from "./rate-limit/stream-leases";
// How many vendor calls one lease of the governor covers, which bench/governor.ts reports.
export { MAX_TOKENS_PER_LEASE } from "./vendor-governor/lease-decision";
