// npm run bench:cost's meters on the bindings (meter.ts says what is counted): the queue handler's
// batch, the queue producers and the KV namespaces.
import { add, bytesOf, current, operations } from "./meter";

/** The queue handler's batch, its deliveries and retries counted. */
export function meteredBatch<B>(batch: MessageBatch<B>): MessageBatch<B> {
  const queue = batch.queue;
  add(current().queueInvocations, queue);
  add(current().delivered, queue, batch.messages.length);
  for (const message of batch.messages) add(current().deliveredOperations, queue, operations(bytesOf(message.body)));
  const messages = batch.messages.map(
    (message) =>
      new Proxy(message, {
        get(target, name) {
          if (name === "retry")
            return (options?: QueueRetryOptions) => {
              add(current().retried, queue);
              target.retry(options);
            };
          const value = Reflect.get(target, name, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
  );
  return new Proxy(batch, {
    get(target, name) {
      if (name === "messages") return messages;
      if (name === "retryAll")
        return (options?: QueueRetryOptions) => {
          add(current().retried, queue, messages.length);
          target.retryAll(options);
        };
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const meteredEnvs = new WeakMap<object, object>();

/** The bindings, with their KV namespaces and queue producers counted. One proxy per env object, so caches keyed by it still hit. */
export function meteredEnv<E extends object>(env: E, queueNames: Record<string, string>): E {
  const known = meteredEnvs.get(env);
  if (known) return known as E;
  const wrapped = new Map<PropertyKey, unknown>();
  const proxy = new Proxy(env, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (value === null || typeof value !== "object") return value;
      if (wrapped.has(name)) return wrapped.get(name);
      let metered: unknown = value;
      if (typeof name === "string" && name in queueNames)
        metered = meteredQueue(value as unknown as Queue, queueNames[name]!);
      else if ("getWithMetadata" in value && "put" in value) metered = meteredKv(value as unknown as KVNamespace);
      wrapped.set(name, metered);
      return metered;
    },
  });
  meteredEnvs.set(env, proxy);
  return proxy;
}

function meteredQueue(queue: Queue, name: string): Queue {
  const count = (bodies: unknown[]) => {
    const { sent } = current();
    const entry = sent[name] ?? { messages: 0, bytes: 0, operations: 0 };
    sent[name] = entry;
    for (const body of bodies) {
      const bytes = bytesOf(body);
      entry.messages++;
      entry.bytes += bytes;
      entry.operations += operations(bytes);
    }
  };
  return new Proxy(queue, {
    get(target, name) {
      if (name === "send")
        return (body: unknown, options?: QueueSendOptions) => {
          count([body]);
          return target.send(body, options);
        };
      if (name === "sendBatch")
        return (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
          const list = [...messages];
          count(list.map(({ body }) => body));
          return target.sendBatch(list, options);
        };
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function meteredKv(kv: KVNamespace): KVNamespace {
  return new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (name === "get" || name === "getWithMetadata")
          current().kv.reads += Array.isArray(args[0]) ? args[0].length : 1;
        else if (name === "put") current().kv.writes++;
        else if (name === "delete") current().kv.deletes++;
        else if (name === "list") current().kv.lists++;
        return Reflect.apply(value, target, args);
      };
    },
  });
}
