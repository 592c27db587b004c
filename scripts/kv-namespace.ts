// What the operator tools do with one KV namespace, whichever store holds it: the shape
// local-kv.ts and wrangler-kv.ts implement and kv-store.ts hands out. It sits below all
// three, so the implementations need not import the module that opens them.

export interface KvEntry {
  key: string;
  value: string;
  metadata?: unknown;
}

/** One namespace of a store. */
export interface KvStore {
  get(key: string): Promise<string | null>;
  /** Names and metadata only: nothing listed may be secret (wrangler logs what it lists). */
  list(prefix: string): Promise<{ name: string; metadata?: unknown }[]>;
  putAll(entries: readonly KvEntry[]): Promise<void>;
}
