// Serves a Worker for the benchmarks as `wrangler dev` does (wrangler's own startWorker:
// the same bundling, the same local workerd, KV, Durable Objects and Queues, the same
// proxy in front), but with no DevTools session attached to it. `wrangler dev` always
// attaches one, so every console.log becomes a DevTools event on the Worker's thread,
// forwarded by wrangler's inspector proxy: in a Worker printing 10 lines per request
// that cut throughput about 4x, against 1.6x with no session (benchmarks/NOTES.md).
// No deployed Worker has that session, and the floors print nothing, so with it the
// benchmarks would charge the service's log lines a debugger's price.
//
// Usage (by test/local-server.ts): tsx scripts/bench/serve.ts --port N --persist-to DIR
//   [--config wrangler.toml] [--var NAME:VALUE]...
// Prints "Ready on <url>" once serving, and the Worker's logs; stops on SIGTERM or SIGINT.
import { parseArgs } from "node:util";
import { unstable_startWorker } from "wrangler";

const { values } = parseArgs({
  options: {
    config: { type: "string", default: "wrangler.toml" },
    port: { type: "string" },
    "persist-to": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
  },
});
if (!values.port || !values["persist-to"]) {
  console.error("serve: --port and --persist-to are required (see the usage at the top of scripts/bench/serve.ts)");
  process.exit(2);
}

const bindings = Object.fromEntries(
  values.var.map((pair) => {
    const at = pair.indexOf(":");
    return [pair.slice(0, at), { type: "plain_text" as const, value: pair.slice(at + 1) }];
  }),
);

const worker = await unstable_startWorker({
  config: values.config,
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
