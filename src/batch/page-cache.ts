import type { StatusPage } from "../contact-info/status-query";
import type { BatchRow } from "./batch-row";

type ItemsPage = { itemsJson: string; nextCursor: string | null };

// Pages kept at most: a page is at most MAX_PAGE_SIZE items, so this bounds the memory.
const MAX_PAGES = 8;

/**
 * Rendered pages of a completed batch, in the object's memory. Once a batch has
 * completed its items never change (only pending items are ever written) until
 * they are deleted, by retention or by the owner: `clear` is called then. Pages
 * of open batches are always rendered afresh.
 */
export class PageCache {
  readonly #pages = new Map<string, ItemsPage>();

  page(row: Pick<BatchRow, "completed_at" | "expired_at" | "deleted_at">, page: StatusPage, render: () => ItemsPage): ItemsPage {
    if (row.completed_at === null || row.expired_at !== null || row.deleted_at !== null) return render();
    const key = `${page.fromIndex}:${page.limit}:${page.status ?? ""}`;
    let rendered = this.#pages.get(key);
    if (!rendered) {
      rendered = render();
      if (this.#pages.size >= MAX_PAGES) this.#pages.delete(this.#pages.keys().next().value!);
      this.#pages.set(key, rendered);
    }
    return rendered;
  }

  clear(): void {
    this.#pages.clear();
  }
}
