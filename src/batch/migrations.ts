// Ordered schema migrations of the batch Durable Object. Never edit a shipped
// entry: append a new one. docs/storage.md describes every table and column.
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE batch (
     id TEXT PRIMARY KEY,
     customer_id TEXT NOT NULL,
     environment TEXT NOT NULL,
     key_id TEXT NOT NULL,
     fields TEXT NOT NULL,
     total_items INTEGER NOT NULL,
     completed_items INTEGER NOT NULL DEFAULT 0,
     failed_items INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     completed_at TEXT,
     next_enqueue_index INTEGER NOT NULL DEFAULT 0,
     enqueue_failures INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE items (
     idx INTEGER PRIMARY KEY,
     external_id TEXT,
     input TEXT NOT NULL,
     status TEXT NOT NULL,
     outcome TEXT,
     emails TEXT,
     phones TEXT,
     error_code TEXT,
     error_message TEXT,
     finished_at TEXT
   );`,
  // Within-batch de-duplication: a follower item is never enqueued and takes its
  // leader's result. Where a result came from. Filtering items by status.
  `ALTER TABLE items ADD COLUMN leader_idx INTEGER;
   ALTER TABLE items ADD COLUMN from_cache INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX items_by_leader ON items (leader_idx) WHERE leader_idx IS NOT NULL;
   CREATE INDEX items_by_status ON items (status, idx);`,
  // Retention: items are deleted RETENTION_SECONDS after completion; the batch row
  // stays as a tombstone (no personal data) so its URL can answer 410.
  `ALTER TABLE batch ADD COLUMN expired_at TEXT;`,
  // Webhooks: where to POST batch.completed, the key's signing secret at submission,
  // and the delivery state (pending → queued → delivered | failed).
  `ALTER TABLE batch ADD COLUMN webhook_url TEXT;
   ALTER TABLE batch ADD COLUMN webhook_secret TEXT;
   ALTER TABLE batch ADD COLUMN status_url TEXT;
   ALTER TABLE batch ADD COLUMN webhook_state TEXT;
   ALTER TABLE batch ADD COLUMN webhook_attempts INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batch ADD COLUMN webhook_last_status INTEGER;`,
  // Re-drive: when each pending item was last put on the queue and how many times,
  // and the same for the webhook, so work whose message was lost is resent a
  // bounded number of times. Rows from before are taken as enqueued once, at the
  // batch's creation (items) or completion (a queued webhook).
  `ALTER TABLE items ADD COLUMN enqueued_at TEXT;
   ALTER TABLE items ADD COLUMN enqueues INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batch ADD COLUMN webhook_queued_at TEXT;
   ALTER TABLE batch ADD COLUMN webhook_attempted_at TEXT;
   ALTER TABLE batch ADD COLUMN webhook_enqueues INTEGER NOT NULL DEFAULT 0;
   UPDATE items SET enqueued_at = (SELECT created_at FROM batch), enqueues = 1
     WHERE status = 'pending' AND leader_idx IS NULL AND idx < (SELECT next_enqueue_index FROM batch);
   UPDATE batch SET webhook_queued_at = coalesce(completed_at, created_at), webhook_enqueues = 1 WHERE webhook_state = 'queued';
   CREATE INDEX items_by_enqueue ON items (enqueued_at) WHERE status = 'pending' AND leader_idx IS NULL;`,
  // Normalized once, at submission: each item's normalized person (JSON) and its
  // key, carried in its queue message. Rows from before have neither; the fan-out
  // normalizes their input instead.
  `ALTER TABLE items ADD COLUMN person TEXT;
   ALTER TABLE items ADD COLUMN person_key TEXT;`,
  // Provenance: the data sources asked for the item and what each said, as a JSON
  // array of { name, outcome }. NULL (shown as []) for items no source was asked for.
  `ALTER TABLE items ADD COLUMN sources TEXT;`,
  // Cancel and erase: when the batch was deleted (its items go, the row stays as a
  // tombstone). The outbox: usage deltas and the batch's registration, numbered by
  // outbox_seq, reported to the account by the alarm. A batch from before registers
  // on its next alarm; its earlier usage is not counted.
  `ALTER TABLE batch ADD COLUMN deleted_at TEXT;
   ALTER TABLE batch ADD COLUMN outbox_seq INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE outbox (seq INTEGER PRIMARY KEY, day TEXT NOT NULL, usage TEXT NOT NULL);
   INSERT INTO outbox (seq, day, usage) SELECT 1, substr(created_at, 1, 10), '{}' FROM batch;
   UPDATE batch SET outbox_seq = 1;`,
  // Re-drive counts from when an item is due back, not from when it was sent: an item
  // whose message waits out a source's Retry-After (or a backoff) is due when that wait
  // ends, so it is never mistaken for lost. Items the paced fan-out has not sent yet
  // have no due time.
  `ALTER TABLE items ADD COLUMN due_at TEXT;
   UPDATE items SET due_at = enqueued_at WHERE status = 'pending' AND leader_idx IS NULL;
   DROP INDEX items_by_enqueue;
   CREATE INDEX items_by_due ON items (due_at) WHERE status = 'pending' AND leader_idx IS NULL;`,
  // Erasure reaches the result cache: the KV keys of a deleted batch's people,
  // written with the deletion, deleted from RESULT_CACHE by the alarm.
  `CREATE TABLE cache_purge (key TEXT NOT NULL);`,
  // What an item found before a source asked for time, kept until the item ends so
  // its end never discards it (record/earlier-finds.ts); the index finds the few that have any.
  `ALTER TABLE items ADD COLUMN found_earlier TEXT;
   CREATE INDEX items_with_earlier_finds ON items (idx) WHERE found_earlier IS NOT NULL;`,
  // Credits: what each item was charged, their sum on the batch, and the batch's cap
  // (NULL: none). Batches from before charged nothing.
  `ALTER TABLE items ADD COLUMN credits INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batch ADD COLUMN credits_charged INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batch ADD COLUMN max_credits INTEGER;`,
  // The progress stream (events/event-log.ts): each finished item's event number, handed out in
  // turn from the batch's event_seq; the second index finds the finished items not yet
  // numbered (an older batch's are numbered the first time the log is read).
  `ALTER TABLE items ADD COLUMN event_seq INTEGER;
   ALTER TABLE batch ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX items_by_event ON items (event_seq) WHERE event_seq IS NOT NULL;
   CREATE INDEX items_unnumbered ON items (idx) WHERE event_seq IS NULL AND status <> 'pending';`,
  // item.completed webhooks: whether the batch subscribed (1), and its deliveries, each
  // the items (a JSON array of indexes) one record finished, written with that record.
  `ALTER TABLE batch ADD COLUMN item_webhooks INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE item_deliveries (
     seq INTEGER PRIMARY KEY,
     items TEXT NOT NULL,
     finished_at TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'delivered', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     last_status INTEGER,
     enqueues INTEGER NOT NULL DEFAULT 0,
     queued_at TEXT,
     attempted_at TEXT
   );
   CREATE INDEX item_deliveries_by_state ON item_deliveries (state, seq);`,
  // Enums enforced by SQLite: the item's status and outcome, the batch's environment and
  // webhook state. SQLite adds a CHECK only by rebuilding the table: each is renamed,
  // created again with its checks, filled from the old one, and dropped (its indexes
  // with it, so they are made again), all in the constructor's transaction. The old
  // rows' personal columns (and the webhook URL and secret) are overwritten with zeros
  // in place before the drop (as privacy/storage/scrub.ts does), so the pages it frees keep none.
  `ALTER TABLE batch RENAME TO batch_before_checks;
   CREATE TABLE batch (
     id TEXT PRIMARY KEY,
     customer_id TEXT NOT NULL,
     environment TEXT NOT NULL CHECK (environment IN ('live', 'test')),
     key_id TEXT NOT NULL,
     fields TEXT NOT NULL,
     total_items INTEGER NOT NULL,
     completed_items INTEGER NOT NULL DEFAULT 0,
     failed_items INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     completed_at TEXT,
     next_enqueue_index INTEGER NOT NULL DEFAULT 0,
     enqueue_failures INTEGER NOT NULL DEFAULT 0,
     expired_at TEXT,
     webhook_url TEXT,
     webhook_secret TEXT,
     status_url TEXT,
     webhook_state TEXT CHECK (webhook_state IN ('pending', 'queued', 'delivered', 'failed')),
     webhook_attempts INTEGER NOT NULL DEFAULT 0,
     webhook_last_status INTEGER,
     webhook_queued_at TEXT,
     webhook_attempted_at TEXT,
     webhook_enqueues INTEGER NOT NULL DEFAULT 0,
     deleted_at TEXT,
     outbox_seq INTEGER NOT NULL DEFAULT 0,
     credits_charged INTEGER NOT NULL DEFAULT 0,
     max_credits INTEGER,
     event_seq INTEGER NOT NULL DEFAULT 0,
     item_webhooks INTEGER NOT NULL DEFAULT 0
   );
   INSERT INTO batch SELECT * FROM batch_before_checks;
   UPDATE batch_before_checks SET
       webhook_url = CASE WHEN webhook_url IS NULL THEN NULL ELSE zeroblob(length(CAST(webhook_url AS BLOB))) END,
       webhook_secret = CASE WHEN webhook_secret IS NULL THEN NULL ELSE zeroblob(length(CAST(webhook_secret AS BLOB))) END;
   DROP TABLE batch_before_checks;
   ALTER TABLE items RENAME TO items_before_checks;
   CREATE TABLE items (
     idx INTEGER PRIMARY KEY,
     external_id TEXT,
     input TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
     outcome TEXT CHECK (outcome IN ('found', 'not_found')),
     emails TEXT,
     phones TEXT,
     error_code TEXT,
     error_message TEXT,
     finished_at TEXT,
     leader_idx INTEGER,
     from_cache INTEGER NOT NULL DEFAULT 0,
     enqueued_at TEXT,
     enqueues INTEGER NOT NULL DEFAULT 0,
     person TEXT,
     person_key TEXT,
     sources TEXT,
     due_at TEXT,
     found_earlier TEXT,
     credits INTEGER NOT NULL DEFAULT 0,
     event_seq INTEGER
   );
   INSERT INTO items SELECT * FROM items_before_checks;
   UPDATE items_before_checks SET
       external_id = CASE WHEN external_id IS NULL THEN NULL ELSE zeroblob(length(CAST(external_id AS BLOB))) END,
       input = CASE WHEN input IS NULL THEN NULL ELSE zeroblob(length(CAST(input AS BLOB))) END,
       person = CASE WHEN person IS NULL THEN NULL ELSE zeroblob(length(CAST(person AS BLOB))) END,
       person_key = CASE WHEN person_key IS NULL THEN NULL ELSE zeroblob(length(CAST(person_key AS BLOB))) END,
       emails = CASE WHEN emails IS NULL THEN NULL ELSE zeroblob(length(CAST(emails AS BLOB))) END,
       phones = CASE WHEN phones IS NULL THEN NULL ELSE zeroblob(length(CAST(phones AS BLOB))) END,
       found_earlier = CASE WHEN found_earlier IS NULL THEN NULL ELSE zeroblob(length(CAST(found_earlier AS BLOB))) END;
   DROP TABLE items_before_checks;
   CREATE INDEX items_by_leader ON items (leader_idx) WHERE leader_idx IS NOT NULL;
   CREATE INDEX items_by_status ON items (status, idx);
   CREATE INDEX items_by_due ON items (due_at) WHERE status = 'pending' AND leader_idx IS NULL;
   CREATE INDEX items_with_earlier_finds ON items (idx) WHERE found_earlier IS NOT NULL;
   CREATE INDEX items_by_event ON items (event_seq) WHERE event_seq IS NOT NULL;
   CREATE INDEX items_unnumbered ON items (idx) WHERE event_seq IS NULL AND status <> 'pending';`,
  // Privacy: how many items (by index) were sent to the account's person index, and
  // when an item was erased (its input and results replaced by the erased marker).
  // Batches from before send their items to the index on their next alarm.
  `ALTER TABLE batch ADD COLUMN people_indexed INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE items ADD COLUMN erased_at TEXT;`,
  // Hashed once, at submission: each item's person hashes (JSON: the person key's and the
  // identifier keys', person-keys.ts), read by the person index and carried in its queue
  // message to the do-not-enrich check and the result cache. Rows from before have none;
  // what reads them hashes the item then.
  `ALTER TABLE items ADD COLUMN hashes TEXT;`,
  // Why a completed item is not_found although a source found something (batch-views.ts
  // ITEM_REASONS), stored with its outcome so every view of the item says the same.
  // Rows from before have none.
  `ALTER TABLE items ADD COLUMN reason TEXT CHECK (reason IN ('rejected_by_verification'));`,
  // Keyed hashes (person-keys.ts), and one identity rule for names: the items' plain SHA-256
  // hashes are dropped (what reads an item without hashes makes them, keyed, by the rule of
  // today), and the batch sends its people to its account's index again, which forgot them.
  `UPDATE items SET hashes = NULL WHERE hashes IS NOT NULL;
   UPDATE batch SET people_indexed = 0;`,
  // items_by_due holds only the pending leaders that have a due time: an item not yet sent (due_at
  // NULL, past the first fan-out window) enters it when sent, not at the insert too, one row written
  // fewer an item (issue 40). Every query of it compares due_at or says due_at IS NOT NULL.
  `DROP INDEX items_by_due;
   CREATE INDEX items_by_due ON items (due_at) WHERE status = 'pending' AND leader_idx IS NULL AND due_at IS NOT NULL;`,
  // Feedback on delivered contacts (record/feedback.ts): the credits refunded, per batch and item,
  // and the item's reports, which name a contact by its place in the item's lists (no personal data).
  // And the submit's maxAgeDays (null for batches from before: the default).
  `ALTER TABLE batch ADD COLUMN credits_refunded INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE batch ADD COLUMN max_age_days INTEGER;
   ALTER TABLE items ADD COLUMN credits_refunded INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE items ADD COLUMN feedback TEXT;`,
  // Why batch.completed was not sent (webhooks/webhook-destination.ts): its URL's name resolved
  // inside before a delivery. Null for batches from before, and whenever it was sent.
  `ALTER TABLE batch ADD COLUMN webhook_refused TEXT;`,
];
