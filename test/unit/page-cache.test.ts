import { describe, expect, it } from "vitest";
import { ByteBudgetCache } from "../../src/base/byte-budget-cache";
import type { BatchRow } from "../../src/batch/batch-row";
import { PageCache } from "../../src/batch/page-cache";
import { MAX_FIELD_LENGTH, PERSON_FIELDS } from "../../src/contact-info/person";
import { MAX_PAGE_SIZE } from "../../src/contact-info/status-query";

const open = { completed_at: null, expired_at: null, deleted_at: null } as BatchRow;
const completed = { ...open, completed_at: "2026-11-22T12:00:00.000Z" } as BatchRow;
const page = { fromIndex: 0, limit: 10 };

function counted() {
  let renders = 0;
  return {
    render: () => ({ itemsJson: `[${++renders}]`, nextCursor: null }),
    renders: () => renders,
  };
}

describe("rendered pages of a batch", () => {
  it("are rendered afresh on every read while the batch is open", () => {
    const cache = new PageCache();
    const { render, renders } = counted();
    cache.page(open, page, render);
    expect(cache.page(open, page, render).itemsJson).toBe("[2]");
    expect(renders()).toBe(2);
  });

  it("are rendered once per page of a completed batch, until cleared", () => {
    const cache = new PageCache();
    const { render, renders } = counted();
    expect(cache.page(completed, page, render).itemsJson).toBe("[1]");
    expect(cache.page(completed, page, render).itemsJson).toBe("[1]");
    expect(cache.page(completed, { ...page, status: "failed" }, render).itemsJson).toBe("[2]");
    expect(cache.page(completed, { ...page, fromIndex: 10 }, render).itemsJson).toBe("[3]");
    cache.clear();
    expect(cache.page(completed, page, render).itemsJson).toBe("[4]");
    expect(renders()).toBe(4);
  });

  it("are never kept for an expired or deleted batch", () => {
    const cache = new PageCache();
    const { render, renders } = counted();
    for (const row of [
      { ...completed, expired_at: completed.completed_at },
      { ...completed, deleted_at: completed.completed_at },
    ]) {
      cache.page(row as BatchRow, page, render);
      cache.page(row as BatchRow, page, render);
    }
    expect(renders()).toBe(4);
  });
});

describe("the memory rendered pages hold", () => {
  // 100,000 characters: 200 KB each at two bytes a code unit, so three fit in 650 KB and four do not.
  const BUDGET = 650_000;
  const sized = (characters: number) => {
    const rendered: number[] = [];
    return {
      render: (fromIndex: number) => () => {
        rendered.push(fromIndex);
        return { itemsJson: "x".repeat(characters), nextCursor: null };
      },
      rendered,
    };
  };

  it("is freed oldest first when a new page needs room", () => {
    const pages = new ByteBudgetCache<{ itemsJson: string; nextCursor: string | null }>(BUDGET);
    const cache = new PageCache(pages);
    const { render, rendered } = sized(100_000);
    for (const fromIndex of [0, 10, 20, 30]) cache.page(completed, { ...page, fromIndex }, render(fromIndex));
    // 0 was dropped for 30; 10 and 20 are still kept; reading 0 again drops 10, the oldest then.
    for (const fromIndex of [10, 20, 30, 0, 20, 10]) cache.page(completed, { ...page, fromIndex }, render(fromIndex));
    expect(rendered).toEqual([0, 10, 20, 30, 0, 10]);
    expect(pages.bytes).toBeLessThanOrEqual(BUDGET);
    expect(pages.bytes).toBeGreaterThan(3 * 200_000);
  });

  it("never exceeds its budget, whatever the sizes of the pages", () => {
    const pages = new ByteBudgetCache<{ itemsJson: string; nextCursor: string | null }>(BUDGET);
    const caches = [new PageCache(pages), new PageCache(pages)];
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let i = 0; i < 300; i++) {
      const itemsJson = "x".repeat(next() % 200_000);
      caches[i % 2]!.page(completed, { ...page, fromIndex: next() % 50 }, () => ({
        itemsJson,
        nextCursor: "c".repeat(next() % 40),
      }));
      expect(pages.bytes, `page ${i}`).toBeLessThanOrEqual(BUDGET);
    }
    expect(pages.bytes).toBeGreaterThan(BUDGET / 2);
  });

  it("keeps no page larger than its budget, answers it all the same, and drops nothing for it", () => {
    const pages = new ByteBudgetCache<{ itemsJson: string; nextCursor: string | null }>(BUDGET);
    const cache = new PageCache(pages);
    const small = sized(100_000);
    const large = sized(400_000);
    cache.page(completed, page, small.render(0));
    for (let read = 0; read < 2; read++) {
      expect(cache.page(completed, { ...page, fromIndex: 10 }, large.render(10)).itemsJson).toHaveLength(400_000);
    }
    cache.page(completed, page, small.render(0));
    expect(large.rendered).toEqual([10, 10]);
    expect(small.rendered).toEqual([0]);
  });

  it("is shared by the batches of an isolate, each clearing only its own pages", () => {
    const pages = new ByteBudgetCache<{ itemsJson: string; nextCursor: string | null }>(BUDGET);
    const [first, second] = [new PageCache(pages), new PageCache(pages)];
    const { render, rendered } = sized(10);
    first.page(completed, page, render(1));
    second.page(completed, page, render(2));
    first.clear();
    first.page(completed, page, render(1));
    second.page(completed, page, render(2));
    expect(rendered).toEqual([1, 2, 1]);
  });

  it("answers the largest page a client can ask for, of fields that JSON escapes to twice their length, without keeping it", () => {
    const cache = new PageCache();
    const item = Object.fromEntries(PERSON_FIELDS.map((field) => [field, '"'.repeat(MAX_FIELD_LENGTH)]));
    const largest = { fromIndex: 0, limit: MAX_PAGE_SIZE };
    let renders = 0;
    const render = () => {
      renders++;
      return {
        itemsJson: JSON.stringify(Array.from({ length: MAX_PAGE_SIZE }, () => ({ input: item }))),
        nextCursor: null,
      };
    };
    const answered = cache.page(completed, largest, render);
    expect(JSON.parse(answered.itemsJson)).toHaveLength(MAX_PAGE_SIZE);
    cache.page(completed, largest, render);
    expect(renders).toBe(2);
  });
});
