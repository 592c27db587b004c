import { describe, expect, it } from "vitest";
import type { BatchRow } from "../../src/batch/batch-row";
import { PageCache } from "../../src/batch/page-cache";

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
