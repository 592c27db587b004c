// Serves a Worker for the benchmarks as `wrangler dev` does (wrangler's own startWorker:
// the same bundling, the same local workerd, KV, Durable Objects and Queues, the same
// proxy in front), without the two debugging aids `wrangler dev` attaches to every
// Worker, which no deployed Worker has and which weigh on the service more than on
// the floors (bench/NOTES.md):
// - its DevTools session: every console.log becomes a DevTools event on the Worker's
//   thread, forwarded by wrangler's inspector proxy (a Worker printing 10 lines per
//   request lost 76% of its throughput with it, 37% without);
// - its local trace collector (X_LOCAL_OBSERVABILITY): a streaming tail worker fed
//   an event for every invocation and span of the Worker, each Durable Object call and
//   SQL statement included (the status read: 0.52 of /healthz with it, 0.70 without).
//
// Usage (by scripts/local-server.ts): tsx bench/serve.ts --port N --persist-to DIR
//   [--config wrangler.toml] [--env-file FILE]... [--var NAME:VALUE]...
// Prints "Ready on <url>" once serving, and the Worker's logs; stops on SIGTERM or SIGINT.
import { parseArgs } from "node:util";
import { unstable_startWorker } from "wrangler";

const { values } = parseArgs({
  options: {
    config: { type: "string", default: "wrangler.toml" },
    port: { type: "string" },
    "persist-to": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
    // The required secrets, read by wrangler as `wrangler dev --env-file` reads them.
    "env-file": { type: "string", multiple: true, default: [] },
  },
});
if (!values.port || !values["persist-to"]) {
  console.error("serve: --port and --persist-to are required (see the usage at the top of bench/serve.ts)");
  process.exit(2);
}

const bindings = Object.fromEntries(
  values.var.map((pair) => {
    const at = pair.indexOf(":");
    if (at < 1) {
      console.error(`serve: --var ${pair} is not NAME:VALUE`);
      process.exit(2);
    }
    return [pair.slice(0, at), { type: "plain_text" as const, value: pair.slice(at + 1) }];
  }),
);

// Read by wrangler when it builds the runtime's configuration; off unless set (to compare).
process.env.X_LOCAL_OBSERVABILITY ??= "false";
const worker = await unstable_startWorker({
  config: values.config,
  envFiles: values["env-file"],
  bindings,
  dev: {
    server: { hostname: "127.0.0.1", port: Number(values.port) },
    inspector: false,
    persist: values["persist-to"],
    watch: false,
    liveReload: false,
  },
});
await worker.ready;
console.log(`Ready on ${await worker.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void worker.dispose().finally(() => process.exit(0));
  });
}
