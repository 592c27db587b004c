import { ByteBudgetCache, stringBytes } from "../base/byte-budget-cache";
import type { StatusPage } from "../contact-info/status-query";
import type { BatchRow } from "./batch-row";

type ItemsPage = { itemsJson: string; nextCursor: string | null };

// One budget for every batch object of an isolate: objects of a class may share an isolate, and
// with it its 128 MB. A largest page (1,000 items of 512-character fields) can be several MB,
// more than the budget: it is rendered and answered, not kept.
const PAGE_CACHE_BUDGET_BYTES = 4 * 1024 * 1024;
const isolatePages = new ByteBudgetCache<ItemsPage>(PAGE_CACHE_BUDGET_BYTES);
let caches = 0;

/**
 * Rendered pages of a completed batch, in the isolate's memory within a byte budget
 * (oldest written leave first). Once a batch has completed its items never change
 * (only pending items are ever written) until they are deleted, by retention or by
 * the owner: `clear` is called then. Pages of open batches are always rendered afresh.
 */
export class PageCache {
  readonly #pages: ByteBudgetCache<ItemsPage>;
  // Each object's pages apart from the others' in the shared budget.
  readonly #prefix = `${++caches}:`;

  constructor(pages = isolatePages) {
    this.#pages = pages;
  }

  page(
    row: Pick<BatchRow, "completed_at" | "expired_at" | "deleted_at">,
    page: StatusPage,
    render: () => ItemsPage,
  ): ItemsPage {
    if (row.completed_at === null || row.expired_at !== null || row.deleted_at !== null) return render();
    const key = `${this.#prefix}${page.fromIndex}:${page.limit}:${page.status ?? ""}`;
    let rendered = this.#pages.get(key);
    if (!rendered) {
      rendered = render();
      this.#pages.set(key, rendered, stringBytes(rendered.itemsJson) + stringBytes(rendered.nextCursor ?? ""));
    }
    return rendered;
  }

  clear(): void {
    this.#pages.deletePrefixed(this.#prefix);
  }
}
