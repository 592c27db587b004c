/**
 * Bytes a string may take in memory. V8 keeps a string whose code units all fit
 * in one byte at one byte each, any other at two: two is the bound.
 */
export const stringBytes = (value: string): number => value.length * 2;

// Counted for each entry besides the sizes its caller gives: the map's slot, the entry
// object and small values (a parsed record's object shells). On the high side.
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * A cache held to a byte budget. Each entry counts its key's and its value's bytes
 * (the value's as its caller measures them, with stringBytes) plus a fixed
 * overhead; writing one that needs room drops the oldest written first, and one
 * larger than the whole budget is not kept. The count never exceeds the budget.
 */
export class ByteBudgetCache<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  readonly #budgetBytes: number;
  #bytes = 0;

  constructor(budgetBytes: number) {
    this.#budgetBytes = budgetBytes;
  }

  /** Bytes counted for the entries kept, never over the budget. */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Keeps `value` if it fits the budget at all (dropping the oldest entries for room); says whether it did. */
  set(key: string, value: V, valueBytes: number): boolean {
    this.delete(key);
    const bytes = stringBytes(key) + valueBytes + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.#budgetBytes) return false;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes + bytes <= this.#budgetBytes) break;
      this.delete(oldest);
    }
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    return true;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Drops every entry whose key starts with `prefix`. */
  deletePrefixed(prefix: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.delete(key);
  }
}
