import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../../src/base/sql-migrations";
import { MIGRATIONS } from "../../src/batch/migrations";
import { createSchema, migrate } from "../../src/batch/schema";
import { batchStub } from "../../src/batch/stub";

type MasterRow = { type: string; name: string; tbl_name: string; sql: string | null };

// ALTER TABLE … ADD COLUMN appends to the stored CREATE TABLE text, so the text is
// compared with its layout (whitespace around punctuation) taken out.
const layoutFree = (sql: string | null) =>
  sql
    ?.replace(/\s+/g, " ")
    .replace(/\s*([(),;])\s*/g, "$1")
    .trim() ?? null;

/** Everything a schema is: sqlite_master, each table's columns and each index's columns, and the recorded version. */
async function schemaOf(build: (sql: SqlStorage) => void) {
  return runInDurableObject(batchStub(env, crypto.randomUUID()), (_, state) => {
    const { sql } = state.storage;
    build(sql);
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
  it("is exactly the schema every migration in turn produces", async () => {
    const migrated = await schemaOf(migrate);
    const fresh = await schemaOf(createSchema);
    expect(migrated.master.map((row) => row.name)).toContain("items_by_due");
    expect(fresh).toEqual(migrated);
  });

  it("needs no migration afterwards", async () => {
    const fresh = await schemaOf((sql) => {
      createSchema(sql);
      migrate(sql);
    });
    expect(fresh).toEqual(await schemaOf(createSchema));
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
    const refused = await inDurableObject((sql) => {
      createSchema(sql);
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

  it("are added to a batch from before them, which keeps every row and index", async () => {
    const { before, after, refused } = await inDurableObject((sql, storage) => {
      // The migration that adds the CHECKs, wherever later ones put it.
      const checks = MIGRATIONS.findIndex((migration) => migration.includes("batch_before_checks"));
      applyMigrations(sql, MIGRATIONS.slice(0, checks));
      insertBatch(sql, "test", null);
      insertItem(sql, 0, "completed", "found");
      insertItem(sql, 1, "pending", null);
      insertItem(sql, 2, "failed", null);
      const read = () => ({
        batch: sql.exec("SELECT * FROM batch").toArray(),
        items: sql.exec("SELECT * FROM items ORDER BY idx").toArray(),
        pending: sql.exec("SELECT idx FROM items INDEXED BY items_by_status WHERE status = 'pending'").toArray(),
      });
      const before = read();
      // As the object's constructor does, up to that migration.
      storage.transactionSync(() => applyMigrations(sql, MIGRATIONS.slice(0, checks + 1)));
      let refused = "accepted";
      try {
        sql.exec("UPDATE items SET status = 'done' WHERE idx = 1");
      } catch (error) {
        refused = String(error);
      }
      return { before, after: read(), refused };
    });
    expect(before.items).toHaveLength(3);
    expect(after).toEqual(before);
    expect(refused).toMatch(/CHECK constraint failed/);
  });
});
