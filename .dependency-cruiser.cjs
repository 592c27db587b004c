// The floors of src/, lowest first: a module imports only from its own floor or
// the floors below it, and no import ever leads back to where it started. Rooms
// low in the house are vocabulary (shapes, codes, pure rules); rooms high up wire
// them together. A new room gets a floor here, or its imports fail the check.
// `npm run lint` runs this (.ci/run calls it).
// Privacy's files that run inside the batch object, on its floor; and privacy's route declarations, on the routes floor.
const PRIVACY_IN_BATCH = "(erase-person|erase-batch|cache-purge|retention)\\.ts";
const PRIVACY_DOORS = "(routes|list-routes)";
// CRM's doors (its route declarations, on the routes floor) and its operations (on the operations floor).
const CRM_DOORS = "(routes|connection-routes)";
const CRM_OPERATIONS = "(operations|connection-operations)";
// The batch room's doors (routes floor), its operations (operations floor) and a submit's schema (the API's words).
const BATCH_DOORS = "(routes|read-routes|list-routes|event-routes|submit-request)";
const BATCH_OPERATIONS = "(operations|read-operations)";
// Credits' doors and operations (feedback, the budget and the ledger), and the refund, which runs inside the batch object.
const CREDITS_DOORS = "(feedback-routes|budget-routes)";
const CREDITS_OPERATIONS = "(feedback-operations|budget-operations)";
const CREDITS_IN_BATCH = "refund";
const FLOORS = [
  // The base: what every room may import (configuration, logging, names and placement of objects,
  // hashing, migrations, backoff), importing nothing but each other.
  ["floor", "src/base/"],
  // HTTP vocabulary: the one error type and its codes, problem+json, body and query reading, paging.
  ["http", "src/http/"],
  // The API's words: a person and contact data, their validation, the batch's views and RPC shapes, events.
  ["contact-info", "src/(contact-info/|batch/submission\\.ts)"],
  // The queues' message contracts: what producers (the batch object) send and consumers (queue/) read.
  ["queue-messages", "src/queue-messages/"],
  // Privacy's words and the SQL it runs inside the objects (src/privacy/ is one room over four floors, this
  // the lowest): its request and response schemas (schemas.ts); the scrub (zero-overwrite,
  // free-page filling) and the size note every writer leaves for it, the account's person index and the
  // batch's chunks of it, the do-not-enrich and do-not-deliver lists, erasure receipts. Pure functions over
  // SqlStorage and DurableObjectStorage that call no stub: the account and the batch object, above, import them.
  ["privacy-storage", `src/privacy/(storage/(?!${PRIVACY_IN_BATCH})|schemas\\.ts)`],
  // A user's spreadsheet read, mapped and written back; no Node or Worker API (the tools and the console share it).
  ["file-core", "src/file-core/"],
  // Money (src/credits/ is one room over four floors, this the lowest): pricing, the cap, a batch's estimate, the
  // budget and the ledger, and the SQL they run in the account.
  ["credits", `src/credits/(?!(${CREDITS_IN_BATCH}|${CREDITS_OPERATIONS}|${CREDITS_DOORS})\\.ts)`],
  // Below the limiter, which keeps the customer's Idempotency-Key records.
  ["idempotency", "src/idempotency/"],
  // The per-customer limiter object, its windows and endpoint types, and the leases of open event streams.
  ["rate-limit", "src/rate-limit/"],
  // The per-vendor-key call budget object and its pure lease decision.
  ["vendor-governor", "src/vendor-governor/"],
  // CRM's part of the account object: the SQL of the customer's connections (tokens sealed) and of the
  // syncs made from each batch, which the account runs on its storage and answers for (its `crm…` methods).
  ["crm-storage", "src/crm/storage/account-connections\\.ts"],
  // The per-customer account object: the batch list and usage, fed by the batches' outboxes, and the
  // tables privacy-storage keeps in it; below the batch object, which reports to it.
  ["account", "src/account/"],
  // What an item's result is: the enricher, the waterfall, each vendor, the result and verdict caches.
  ["enrichment", "src/enrichment/"],
  // The batch object: its class and core (row, schema, creation, the alarm's plan and steps, item store) in
  // src/batch/, and its paths in sub-rooms (record/, fan-out/, events/). One floor: the core and
  // the sub-rooms import each other as they need, and no-circular keeps any import from leading back.
  // Privacy's paths inside the batch object (privacy/storage/: a batch deleted, a person's items erased, the
  // result cache purged, retention) stand on this floor with the object's core, which they call.
  // Feedback's refund (credits/refund.ts) runs inside the batch object too.
  [
    "batch",
    `src/(batch/(?!(${BATCH_OPERATIONS}|${BATCH_DOORS}|submission)\\.ts)|privacy/storage/${PRIVACY_IN_BATCH}|credits/${CREDITS_IN_BATCH}\\.ts)`,
  ],
  // Privacy's policy, over the objects below: the erasure of a person across a customer's batches, and
  // the screenings the consumer applies (do-not-enrich before enriching, do-not-deliver before recording).
  ["privacy", `src/privacy/(?!storage/|(schemas|operations|${PRIVACY_DOORS})\\.ts)`],
  // Webhooks: signatures, the POST, the per-batch sender object (a batch's own webhookUrl), and the per-customer
  // hub object (endpoints, the delivery log, retries, redeliver and recover) with its operations. Its routes are
  // in src/routes/ (above: they use the middleware and the document's helpers); the batch reaches the hub through
  // src/batch/events/webhook-hub-stub.ts, below, to publish its events.
  ["webhooks", "src/webhooks/"],
  // API-key records in KV: issuing, lookup, revocation.
  ["keys", "src/keys/"],
  // The queues' consumers: grouping, a group's pure plan, ack and retry, dead letters (the I/O around
  // the enricher and privacy's screenings, below).
  ["queue", "src/queue/"],
  // CRMs (src/crm/ is one room over four floors, this its middle): each CRM declared in its own file,
  // connections (sealed tokens), and the sync object that writes a batch's results back, its SQL in
  // storage/; it reads batches and the account, below it. Its operations and doors stand on the floors above.
  ["crm", `src/crm/(?!(storage/account-connections|${CRM_OPERATIONS}|${CRM_DOORS})\\.ts)`],
  // The assistants connected with OAuth, per customer and environment: their object (what each may do, its
  // allowance, when last used) and its vocabulary; the operations list and end them, the MCP door asks it.
  ["connections", "src/connections/"],
  // One implementation of each operation, whatever the door (a REST route, an MCP tool) calls it.
  [
    "operations",
    `src/(operations/|privacy/operations\\.ts|crm/${CRM_OPERATIONS}\\.ts|batch/${BATCH_OPERATIONS}\\.ts|credits/${CREDITS_OPERATIONS}\\.ts)`,
  ],
  // Named middleware with typed context variables (app-env.ts): environment, auth, rate limit, idempotency.
  ["middleware", "src/(middleware/|app-env\\.ts)"],
  // What each route declares of itself for the document (schemas, headers, problems, examples).
  ["openapi", "src/openapi/(?!document\\.ts)"],
  // Each REST route declared once, its handler calling an operation; a room may hold its own (privacy/, crm/).
  [
    "routes",
    `src/(routes/|privacy/${PRIVACY_DOORS}\\.ts|crm/${CRM_DOORS}\\.ts|batch/${BATCH_DOORS}\\.ts|credits/${CREDITS_DOORS}\\.ts)`,
  ],
  // The operators' API: a Hono app of its own beside the public one (src/index.ts picks it by path).
  ["admin", "src/admin/"],
  // The MCP server: tools that call the operations, a session object, its door at /mcp.
  ["mcp", "src/mcp/"],
  // The Worker's entry: the Hono app and its fetch and queue handlers.
  ["entry", "src/(app|index)\\.ts"],
  // The document is built from the app's routes, at build time (scripts/openapi.ts).
  ["document", "src/openapi/document\\.ts"],
  // What the tools outside src/ may import of it (scripts/ and bench/): tools-api.ts (Node) and bench-api.ts (the benchmarks' Workers).
  ["tools", "src/(tools-api|bench-api)\\.ts"],
];

// What `npm run lint:rooms` cruises (package.json names the same folders): the floors rule src/;
// no circle is allowed in any of them, the tools, the console page, the client, the tests and the
// benchmarks included.
const CHECKED = ["src", "scripts", "console", "client/src", "test", "bench"];

const anyOf = (floors) => `^(${floors.map(([, path]) => path).join("|")})`;
const floorNamed = (name) => FLOORS.find(([floor]) => floor === name);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A circle between modules makes their load order matter and hides which one owns what.",
      severity: "error",
      from: { path: `^(${CHECKED.join("|")})/` },
      to: { circular: true },
    },
    {
      name: "room-without-floor",
      comment: "Every module of src/ is on a floor (FLOORS above).",
      severity: "error",
      from: { path: "^src/", pathNot: anyOf(FLOORS) },
      to: {},
    },
    {
      name: "no-door-into-door",
      comment:
        "The MCP door reads no REST route: a tool runs an operation, which declares its endpoint type " +
        "(src/rate-limit/operation.ts); what each type counts reaches it from the Worker's entry.",
      severity: "error",
      from: { path: anyOf([floorNamed("mcp")]) },
      to: { path: anyOf([floorNamed("routes")]) },
    },
    ...FLOORS.slice(0, -1).map(([name, path], floor) => ({
      name: `no-import-up-from-${name}`,
      comment: `${name} imports only from its own floor and those below it (FLOORS).`,
      severity: "error",
      from: { path: `^${path}` },
      to: { path: anyOf(FLOORS.slice(floor + 1)) },
    })),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with; swc reads
    // the same imports, type-only ones included.
    parser: "swc",
  },
};
