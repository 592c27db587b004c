import { DELIVERY_STATUSES, ENDPOINT_STATUSES } from "./endpoint-events";

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

// The WebhookHub's tables (docs/storage.md, "WebhookHub"), one version while the project has never been
// deployed (docs/storage.md, "Migrations"); from the first deploy on, a change is a migration appended here.
export const HUB_MIGRATIONS: readonly string[] = [
  `CREATE TABLE endpoints (
     id TEXT PRIMARY KEY,
     url TEXT NOT NULL,
     description TEXT,
     events TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN (${list(ENDPOINT_STATUSES)})),
     disabled_reason TEXT,
     secret TEXT NOT NULL,
     previous_secret TEXT,
     previous_secret_until INTEGER,
     failing_since INTEGER,
     created_at TEXT NOT NULL
   );
   CREATE TABLE deliveries (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     endpoint_id TEXT,
     own_url TEXT,
     own_secret TEXT,
     event_id TEXT NOT NULL,
     type TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN (${list(DELIVERY_STATUSES)})),
     created_at TEXT NOT NULL,
     next_attempt_at INTEGER,
     tries INTEGER NOT NULL DEFAULT 0,
     payload TEXT NOT NULL,
     -- item.completed deliveries name their batch, so erasing its people and deleting it reach their payloads.
     batch_id TEXT,
     CHECK ((endpoint_id IS NULL) = (own_url IS NOT NULL AND own_secret IS NOT NULL))
   );
   CREATE UNIQUE INDEX deliveries_once ON deliveries (coalesce(endpoint_id, ''), event_id);
   CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
   CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, seq);
   CREATE INDEX deliveries_by_batch ON deliveries (batch_id) WHERE batch_id IS NOT NULL;
   CREATE TABLE attempts (
     delivery_seq INTEGER NOT NULL,
     at TEXT NOT NULL,
     status_code INTEGER,
     duration_ms INTEGER NOT NULL,
     error TEXT
   );
   CREATE INDEX attempts_by_delivery ON attempts (delivery_seq);
   CREATE TABLE scrub_fillers (n INTEGER PRIMARY KEY, zeros BLOB NOT NULL);`,
];
