import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../../scripts/local-server";
import { type BatchClient, batchClient, until } from "../../blackbox-helpers";

// Black-box: after DELETE, the bytes of a batch's personal data are gone from every
// page of the files `wrangler dev` keeps its Durable Objects in (the .sqlite files and
// their -wal) that a table or an index uses, not only from the rows: from the database
// as it stands. What is not promised, and seen in about half the runs: a page SQLite
// keeps on its free list as a trunk (a list of free pages) may still hold part of an
// older row, since workerd refuses PRAGMA secure_delete; SQLite never reads a free page
// as data. Earlier page images also stay in the write-ahead log until SQLite checkpoints
// it, which workerd does not let the object ask for (docs/storage.md).
let server: LocalServer;
let api: BatchClient;

beforeAll(async () => {
  let keys: ServerKey[] = [];
  server = await startLocalServer({
    prepare: async (state) => {
      keys = await seedKeys(state, [{ customerId: "cus_erasure", environment: "test" }]);
    },
    vars: { RETRY_BASE_DELAY_SECONDS: "1", RETRY_MAX_DELAY_SECONDS: "2" },
  });
  api = batchClient(server, keys[0]!);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const PAGE = 4096;
const FRAME = 24 + PAGE;

/**
 * The database as it stands: each page's latest image in the write-ahead log
 * (frames of the log's current generation: their salt is the header's), else
 * the page in the main file. What a checkpoint would write, and all a reader sees.
 */
function currentPages(main: string): Buffer[] {
  const pages: Buffer[] = [];
  const file = readFileSync(main);
  for (let at = 0; at < file.length; at += PAGE) pages.push(file.subarray(at, at + PAGE));
  let wal: Buffer;
  try {
    wal = readFileSync(`${main}-wal`);
  } catch {
    return pages;
  }
  const salt = wal.subarray(16, 24);
  for (let at = 32; at + FRAME <= wal.length; at += FRAME) {
    if (!wal.subarray(at + 8, at + 16).equals(salt)) break;
    pages[wal.readUInt32BE(at) - 1] = wal.subarray(at + 24, at + FRAME);
  }
  return pages;
}

// The first byte of a b-tree page: a table's or an index's, interior or leaf. Page 1's header comes first.
const BTREE_PAGE_TYPES = new Set([0x02, 0x05, 0x0a, 0x0d]);
const inUse = (page: Buffer, index: number) => BTREE_PAGE_TYPES.has(page[index === 0 ? 100 : 0]!);

/** The pages of the Durable Objects' databases that hold `marker`'s UTF-8 bytes, as "file#page (in use|free)". */
const holding = (marker: string) =>
  filesUnder(server.state)
    .filter((path) => path.endsWith(".sqlite"))
    .flatMap((path) =>
      currentPages(path).flatMap((page, index) =>
        page.includes(Buffer.from(marker, "utf8"))
          ? [`${path}#${index + 1} ${inUse(page, index) ? "in use" : "free"}`]
          : [],
      ),
    );

describe("DELETE", () => {
  it("leaves none of the batch's personal data in the object's SQLite files", async () => {
    const marker = `Zq${crypto.randomUUID().replaceAll("-", "")}`;
    const items = Array.from({ length: 40 }, (_, i) => ({
      externalId: `${marker}-ext-${i}`,
      firstName: `${marker}${i}`,
      lastName: "Erased",
      companyDomain: i % 4 === 0 ? "notfound.test" : "ok.example",
    }));
    const batchId = await api.submit({ items });
    await api.untilCompleted([batchId], 60_000);
    // The marker is on disk while the batch lives: the check can fail.
    const before = await until(() => holding(marker), {
      what: "the marker in a database's pages",
      done: (pages) => pages.some((page) => page.endsWith("in use")),
    });

    const response = await api.call(`/v2/test/person/contact-info/${batchId}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect((await api.call(`/v2/test/person/contact-info/${batchId}`)).status).toBe(410);
    const after = holding(marker);
    expect(after.filter((page) => page.endsWith("in use"))).toEqual([]);
    // Of the pages that held it, a free-list page or two at most may keep a fragment (see above).
    expect(after.length).toBeLessThan(Math.max(3, before.length / 4));
  });
});

describe("POST …/privacy/erasures", () => {
  // Issue 34, finding 1: by first + last name, an item that also carried another full name, its last
  // name composed the other way (NFD submitted, NFC erased), is the person the lookup used.
  it.each([
    [
      "as submitted",
      (marker: string) => ({ firstName: marker, lastName: "Erased" }),
      (marker: string) => ({ firstName: marker, lastName: "Erased" }),
    ],
    [
      "by first + last name, the item having had another full name and its name composed otherwise",
      (marker: string) => ({ fullName: `${marker} Other`, firstName: marker, lastName: "Érased".normalize("NFD") }),
      (marker: string) => ({ firstName: marker, lastName: "Érased".normalize("NFC") }),
    ],
  ])(
    "leaves none of the person's data in the batch's SQLite files, and the others' where it was: %s",
    async (_, submitted, erased) => {
      const marker = `Zp${crypto.randomUUID().replaceAll("-", "")}`;
      const kept = `Kp${crypto.randomUUID().replaceAll("-", "")}`;
      // The person four times (a leader and its followers, each with its own externalId), among 36 others.
      const items = Array.from({ length: 40 }, (_, i) =>
        i % 10 === 0
          ? { externalId: `${marker}-ext-${i}`, ...submitted(marker), companyDomain: "ok.example" }
          : { externalId: `${kept}-ext-${i}`, firstName: `${kept}${i}`, lastName: "Kept", companyDomain: "ok.example" },
      );
      const batchId = await api.submit({ items });
      await api.untilCompleted([batchId], 60_000);
      const before = await until(() => holding(marker), {
        what: "the marker in a database's pages",
        done: (pages) => pages.some((page) => page.endsWith("in use")),
      });

      // The batch reaches the account's person index within moments of its 202; until then an erasure finds nothing.
      const receipt = await until(
        async () => {
          const response = await api.call("/v2/test/privacy/erasures", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ...erased(marker), companyDomain: "ok.example", suppress: false }),
          });
          return response.json<{ items: number; batches: number }>();
        },
        { what: "the erasure of the person's items", done: ({ items }) => items > 0 },
      );
      expect(receipt).toMatchObject({ items: 4, batches: 1 });
      const after = holding(marker);
      expect(after.filter((page) => page.endsWith("in use"))).toEqual([]);
      expect(after.length).toBeLessThan(Math.max(3, before.length / 4));
      // The batch's other people are still there, in the pages in use.
      expect(holding(kept).filter((page) => page.endsWith("in use")).length).toBeGreaterThan(0);
    },
  );
});
