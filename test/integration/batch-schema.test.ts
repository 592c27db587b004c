import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
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
