// npm run bench:cost's meters on the Durable Objects (meter.ts says what is counted): each class's
// storage and the calls into its objects.
import { AsyncLocalStorage } from "node:async_hooks";
import { meteredEnv } from "./bindings";
import { active, add, classTally, cursors } from "./meter";

const inside = new AsyncLocalStorage<object>();

// Rows the targets count apart: the account's person index, and the erasure's bookkeeping.
const apartOf = (query: string): string | null =>
  query.includes("person_index") ? "personIndex" : query.includes("cache_purge") ? "erasure" : null;

/** Counts the rows of `ctx`'s storage: its SQL cursors, its synchronous KV API, its alarms. */
function meterStorage(cls: string, ctx: DurableObjectState): void {
  const { storage } = ctx;
  const sql = storage.sql;
  const exec = sql.exec.bind(sql);
  sql.exec = ((query: string, ...bindings: SqlStorageValue[]) => {
    const cursor = exec(query, ...bindings);
    cursors.push({ cls, query, apart: apartOf(query), cursor });
    return cursor;
  }) as typeof sql.exec;
  const kv = storage.kv;
  const rows = (read: number, written: number, apart: string | null = null) => {
    const t = classTally(cls);
    t.rowsRead += read;
    t.rowsWritten += written;
    if (apart) add(t.rowsWrittenApart, apart, written);
  };
  const { get, put, delete: remove, list } = kv;
  kv.get = ((key: string) => {
    rows(1, 0);
    return get.call(kv, key);
  }) as typeof kv.get;
  kv.put = ((key: string, value: unknown) => {
    rows(0, 1, key.startsWith("scrub:") ? "erasure" : null);
    return put.call(kv, key, value);
  }) as typeof kv.put;
  kv.delete = ((key: string) => {
    rows(0, 1);
    return remove.call(kv, key);
  }) as typeof kv.delete;
  kv.list = ((options?: SyncKvListOptions) => {
    const entries = [...list.call(kv, options)];
    rows(entries.length, 0);
    return entries[Symbol.iterator]();
  }) as typeof kv.list;
  const setAlarm = storage.setAlarm.bind(storage);
  storage.setAlarm = ((time: number | Date, options?: DurableObjectSetAlarmOptions) => {
    rows(0, 1);
    return setAlarm(time, options);
  }) as typeof storage.setAlarm;
}

function request<T>(cls: string, method: string, instance: object, run: () => T): T {
  // A method the object calls on itself is part of the request it serves, not a request.
  if (inside.getStore() === instance) return run();
  const t = classTally(cls);
  if (method === "alarm") t.alarms++;
  else add(t.requests, method);
  let state = active.get(instance);
  if (!state) {
    state = { cls, inFlight: 0, since: 0 };
    active.set(instance, state);
    t.objects++;
  }
  if (state.inFlight++ === 0) state.since = performance.now();
  const end = () => {
    if (--state.inFlight === 0) classTally(cls).activeMs += performance.now() - state.since;
  };
  try {
    const result = inside.run(instance, run);
    if (result instanceof Promise) return result.finally(end) as T;
    end();
    return result;
  } catch (error) {
    end();
    throw error;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor must take any[] (TS2545).
type ObjectClass = new (...args: any[]) => object;

/** `Base` with its storage, its bindings and every call into it counted under `cls`. */
export function meteredClass<C extends ObjectClass>(cls: string, Base: C, queueNames: Record<string, string>): C {
  const Metered = class extends Base {
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    constructor(...args: any[]) {
      const [ctx, env] = args as [DurableObjectState, Env];
      meterStorage(cls, ctx);
      super(ctx, meteredEnv(env, queueNames));
    }
  };
  for (const name of Object.getOwnPropertyNames(Base.prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(Base.prototype, name);
    if (name === "constructor" || typeof descriptor?.value !== "function") continue;
    const method = descriptor.value as (...args: unknown[]) => unknown;
    Object.defineProperty(Metered.prototype, name, {
      ...descriptor,
      value(this: object, ...args: unknown[]) {
        return request(cls, name, this, () => method.apply(this, args));
      },
    });
  }
  return Metered;
}
