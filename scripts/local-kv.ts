// The local KV store that `wrangler dev` (and `npm run dev`) serves from, opened once per
// command in a runtime of the tool's own, as `wrangler kv … --local` opens it, with the
// namespace ids `wrangler dev` gives wrangler.toml's bindings.
//
// Once per command, not once per KV call: `wrangler kv` starts a Node process and a runtime
// for every call, and `set-limits` made up to six (10-23 s a command on this 2-core machine
// with other work running, over 120 s at a load average of 17). Each runtime also opens the
// store's SQLite files again while `wrangler dev` serves from them; SQLite's own locks keep
// that consistent (the server reads what the tool committed within moments of its key cache
// expiring: test/tools/admin-tools-while-serving.test.ts), and one opening instead of six
// keeps the overlap short. (Issue 25's `fetch failed` after a command was the caller's
// stale connection, not the store: see runTool in test/blackbox-helpers.ts.)
//
// Values never leave this process: Miniflare logs nothing, and nothing is written but the store.
import { dirname, join, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { CliError } from "./cli";
import type { KvEntry, KvStore } from "./kv-namespace";

// What the tool uses of the namespace (Miniflare types it with its own copy of the Workers types).
interface LocalNamespace {
  get(key: string, type: "text"): Promise<string | null>;
  list(options: { prefix: string; cursor?: string }): Promise<{
    keys: { name: string; metadata?: unknown }[];
    list_complete: boolean;
    cursor?: string;
  }>;
  put(key: string, value: string, options: { metadata?: unknown }): Promise<void>;
}

// How many writes are in flight at once.
const WRITES_AT_ONCE = 50;

/**
 * `run` with wrangler's logger on stderr: it prints through console.log (reading the config
 * says "Using secrets defined in .dev.vars" when one exists), and the tools' stdout is their
 * answer alone (`keys -- create --json | jq`).
 */
async function withWranglerLogsOnStderr<T>(run: () => Promise<T>): Promise<T> {
  const { log, info, debug } = console;
  console.log = console.info = console.debug = console.error;
  try {
    return await run();
  } finally {
    Object.assign(console, { log, info, debug });
  }
}

/** The namespace id `wrangler dev` uses for `binding`: wrangler.toml's id, else the binding's name. */
const localNamespaceId = (binding: string) => withWranglerLogsOnStderr(() => readNamespaceId(binding));

async function readNamespaceId(binding: string): Promise<{ configPath: string; id: string }> {
  // Loaded when needed: wrangler takes seconds to load, which --help and a usage mistake need not wait for.
  const { unstable_getMiniflareWorkerOptions, unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({});
  const { configPath } = config;
  if (!configPath)
    throw new CliError("no wrangler.toml in this folder or above: run the tool from the project (npm run keys -- …)");
  // Without the Worker's required secrets ([secrets]): the tool reads KV alone, and wrangler would
  // warn on every command that they are missing.
  const { workerOptions } = unstable_getMiniflareWorkerOptions({ ...config, secrets: undefined });
  const namespaces = workerOptions.kvNamespaces as Record<string, string | { id: string }> | string[] | undefined;
  const namespace = Array.isArray(namespaces)
    ? namespaces.includes(binding)
      ? binding
      : undefined
    : namespaces?.[binding];
  if (namespace === undefined) throw new CliError(`${configPath} binds no KV namespace ${binding}`);
  return { configPath, id: typeof namespace === "string" ? namespace : namespace.id };
}

export async function openLocalKv(
  binding: string,
  persistTo?: string,
): Promise<{ kv: KvStore; close(): Promise<void> }> {
  const { configPath, id } = await localNamespaceId(binding);
  // As wrangler resolves it: --persist-to from the working folder, else .wrangler/state beside wrangler.toml.
  const persist = persistTo ? resolve(persistTo) : join(dirname(configPath), ".wrangler", "state");
  const runtime = new Miniflare(
    convertV4MiniflareOptions({
      script: 'addEventListener("fetch", (event) => event.respondWith(new Response(null, { status: 404 })))',
      resourcePersistencePath: join(persist, "v3"),
      kvNamespaces: { NAMESPACE: id },
    }),
  );
  try {
    const namespace = (await runtime.getKVNamespace("NAMESPACE")) as unknown as LocalNamespace;
    const kv: KvStore = {
      get: (key) => namespace.get(key, "text"),
      async list(prefix) {
        const listed: { name: string; metadata?: unknown }[] = [];
        for (let cursor: string | undefined; ; ) {
          const page = await namespace.list({ prefix, cursor });
          listed.push(...page.keys.map(({ name, metadata }) => ({ name, metadata })));
          if (page.list_complete) return listed;
          cursor = page.cursor;
        }
      },
      async putAll(entries: readonly KvEntry[]) {
        for (let start = 0; start < entries.length; start += WRITES_AT_ONCE) {
          await Promise.all(
            entries
              .slice(start, start + WRITES_AT_ONCE)
              .map(({ key, value, metadata }) => namespace.put(key, value, metadata === undefined ? {} : { metadata })),
          );
        }
      },
    };
    return { kv, close: () => runtime.dispose() };
  } catch (error) {
    await runtime.dispose();
    throw error;
  }
}
