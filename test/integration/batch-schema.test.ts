import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../../src/base/sql-migrations";
import { migrate } from "../../src/batch/schema";
import { batchStub } from "../../src/batch/stub";
import { migrate as migrateSync } from "../../src/crm/storage/sync-schema";

type MasterRow = { type: string; name: string; tbl_name: string; sql: string | null };

// ALTER TABLE … ADD COLUMN appends to the stored CREATE TABLE text, so the text is
// compared with its layout (whitespace around punctuation) taken out.
const layoutFree = (sql: string | null) =>
  sql
    ?.replace(/\s+/g, " ")
    .replace(/\s*([(),;])\s*/g, "$1")
    .trim() ?? null;

/** Everything a schema is: sqlite_master, each table's columns and each index's columns, and the recorded version. */
async function schemaOf(build: (storage: DurableObjectStorage) => void) {
  return runInDurableObject(batchStub(env, crypto.randomUUID()), (_, state) => {
    const { sql } = state.storage;
    build(state.storage);
    const master = sql
      .exec<MasterRow>("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
      .toArray()
      .map((row) => ({ ...row, sql: layoutFree(row.sql) }));
    const columns = master
      .filter((row) => row.type === "table")
      .map((row) => ({ table: row.name, columns: sql.exec(`PRAGMA table_info(${row.name})`).toArray() }));
    const indexes = master
      .filter((row) => row.type === "index")
      .map((row) => ({ index: row.name, columns: sql.exec(`PRAGMA index_xinfo(${row.name})`).toArray() }));
    const version = sql.exec("SELECT version FROM schema_version").toArray();
    return { master, columns, indexes, version };
  });
}

describe("a new batch's schema", () => {
  it("is one version, with every table and index the batch reads", async () => {
    const fresh = await schemaOf(migrate);
    expect(fresh.version).toEqual([{ version: 1 }]);
    expect(fresh.master.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        "batch",
        "items",
        "outbox",
        "cache_purge",
        "item_deliveries",
        "items_by_status",
        "items_by_due",
        "items_by_event",
        "items_unnumbered",
        "items_by_leader",
        "items_with_earlier_finds",
        "item_deliveries_by_state",
      ]),
    );
  });

  it("needs no migration afterwards: an existing batch at the latest version is left as it is", async () => {
    const twice = await schemaOf((storage) => {
      migrate(storage);
      migrate(storage);
    });
    expect(twice).toEqual(await schemaOf(migrate));
  });
});

// The rule from the first deploy on (docs/storage.md, "Migrations"): a list only grows, and a
// database at version n runs only the entries from n on, once.
describe("a migration appended to the list", () => {
  it("runs once, on a database at the version before it, and keeps its rows", async () => {
    const { rows, version, columns } = await runInDurableObject(batchStub(env, crypto.randomUUID()), (_, state) => {
      const { sql } = state.storage;
      const first = ["CREATE TABLE t (a INTEGER)"];
      applyMigrations(state.storage, first);
      sql.exec("INSERT INTO t (a) VALUES (1)");
      const appended = [...first, "ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 2"];
      state.storage.transactionSync(() => applyMigrations(state.storage, appended));
      applyMigrations(state.storage, appended);
      return {
        rows: sql.exec("SELECT a, b FROM t").toArray(),
        version: sql.exec("SELECT version FROM schema_version").toArray(),
        columns: sql
          .exec<{ name: string }>("PRAGMA table_info(t)")
          .toArray()
          .map((column) => column.name),
      };
    });
    expect(rows).toEqual([{ a: 1, b: 2 }]);
    expect(version).toEqual([{ version: 2 }]);
    expect(columns).toEqual(["a", "b"]);
  });

  it("that fails leaves no half-applied schema: neither its earlier statements nor a new version", async () => {
    const { thrown, tables, version, columns } = await runInDurableObject(
      batchStub(env, crypto.randomUUID()),
      (_, state) => {
        const { sql } = state.storage;
        const first = ["CREATE TABLE t (a INTEGER)"];
        applyMigrations(state.storage, first);
        // A script whose first statement succeeds and whose second fails, then a migration after it.
        const failing = "CREATE TABLE u (a INTEGER); ALTER TABLE t ADD COLUMN a INTEGER";
        const appended = [...first, "ALTER TABLE t ADD COLUMN b INTEGER", failing, "CREATE TABLE v (a INTEGER)"];
        let thrown = "";
        try {
          applyMigrations(state.storage, appended);
        } catch (error) {
          thrown = String(error);
        }
        return {
          thrown,
          tables: sql
            .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .toArray()
            .map((row) => row.name)
            .filter((name) => !name.startsWith("_cf_")),
          version: sql.exec("SELECT version FROM schema_version").toArray(),
          columns: sql
            .exec<{ name: string }>("PRAGMA table_info(t)")
            .toArray()
            .map((column) => column.name),
        };
      },
    );
    expect(thrown).toMatch(/duplicate column name/);
    expect(tables).toEqual(["schema_version", "t"]);
    expect(version).toEqual([{ version: 1 }]);
    expect(columns).toEqual(["a"]);
  });
});

describe("the enums in SQL", () => {
  const inDurableObject = <T>(run: (sql: SqlStorage, storage: DurableObjectStorage) => T) =>
    runInDurableObject(batchStub(env, crypto.randomUUID()), (_, state) => run(state.storage.sql, state.storage));

  const insertBatch = (sql: SqlStorage, environment: string, webhookState: string | null) =>
    sql.exec(
      `INSERT INTO batch (id, customer_id, environment, key_id, fields, total_items, created_at, webhook_state)
       VALUES ('b', 'c', ?, 'k', '["email"]', 1, '2026-11-26T00:00:00.000Z', ?)`,
      environment,
      webhookState,
    );
  const insertItem = (sql: SqlStorage, idx: number, status: string, outcome: string | null) =>
    sql.exec("INSERT INTO items (idx, input, status, outcome) VALUES (?, '{}', ?, ?)", idx, status, outcome);

  it("refuses an item status, item outcome, environment or webhook state outside its enum", async () => {
    const refused = await inDurableObject((sql, storage) => {
      migrate(storage);
      insertBatch(sql, "live", "pending");
      insertItem(sql, 0, "pending", null);
      const attempts = {
        itemStatus: () => sql.exec("UPDATE items SET status = 'done' WHERE idx = 0"),
        itemOutcome: () => sql.exec("UPDATE items SET status = 'completed', outcome = 'maybe' WHERE idx = 0"),
        newItem: () => insertItem(sql, 1, "processing", null),
        environment: () => sql.exec("UPDATE batch SET environment = 'staging'"),
        webhookState: () => sql.exec("UPDATE batch SET webhook_state = 'sent'"),
      };
      const messages = Object.fromEntries(
        Object.entries(attempts).map(([name, attempt]) => {
          try {
            attempt();
            return [name, "accepted"];
          } catch (error) {
            return [name, String(error)];
          }
        }),
      );
      const row = sql.exec("SELECT status, outcome FROM items").toArray();
      const batch = sql.exec("SELECT environment, webhook_state FROM batch").one();
      return { messages, row, batch };
    });
    for (const message of Object.values(refused.messages)) expect(message).toMatch(/CHECK constraint failed/);
    expect(refused.row).toEqual([{ status: "pending", outcome: null }]);
    expect(refused.batch).toEqual({ environment: "live", webhook_state: "pending" });
  });
});

// Before the first deploy every object's schema is one version (docs/storage.md, "Migrations").
describe("the CRM sync's and the webhook hub's schemas", () => {
  const versionIn = (stub: DurableObjectStub, build?: (storage: DurableObjectStorage) => void) =>
    runInDurableObject(stub, (_, state) => {
      build?.(state.storage);
      return state.storage.sql.exec("SELECT version FROM schema_version").toArray();
    });

  it("are one version each", async () => {
    const sync = env.CRM_SYNCS.get(env.CRM_SYNCS.idFromName(crypto.randomUUID()));
    expect(await versionIn(sync, migrateSync)).toEqual([{ version: 1 }]);
    const hub = env.WEBHOOK_HUBS.get(env.WEBHOOK_HUBS.idFromName(`test:${crypto.randomUUID()}`));
    expect(await versionIn(hub)).toEqual([{ version: 1 }]);
  });

  it("a CRM sync read before it started leaves no table", async () => {
    const sync = env.CRM_SYNCS.get(env.CRM_SYNCS.idFromName(crypto.randomUUID()));
    const tables = await runInDurableObject(sync, (_, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
    );
    expect(tables.filter(({ name }) => !String(name).startsWith("_cf_"))).toEqual([]);
  });
});
