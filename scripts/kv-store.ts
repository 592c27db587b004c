// The operator tools' access to KV: `--local`, the very store `wrangler dev` reads
// (local-kv.ts), or `--remote`, the deployed namespace through wrangler (wrangler-kv.ts).
import type { KvStore } from "./kv-namespace";
import { openLocalKv } from "./local-kv";
import { remoteKv } from "./wrangler-kv";

/** A KV store: the local one (a `wrangler dev --persist-to DIR` state, or the default) or the deployed one. */
export interface Store {
  target: "--local" | "--remote";
  persistTo?: string;
}

/** Runs `use` on the namespace bound as `binding` in wrangler.toml, then closes what was opened for it. */
export async function withKv<T>(store: Store, binding: string, use: (kv: KvStore) => Promise<T>): Promise<T> {
  if (store.target === "--remote") return use(remoteKv(binding));
  const local = await openLocalKv(binding, store.persistTo);
  try {
    return await use(local.kv);
  } finally {
    await local.close();
  }
}
