// Starts `wrangler dev` for black-box tests (or, for benchmarks, bench/serve.ts):
// loopback only, a free port, its own state directory, bounded in time, and stopped by
// its own process group.
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiKeyWrites, ENDPOINT_TYPES, type Environment, issueApiKey } from "../src/tools-api";
import { DEV_SECRETS_FILE } from "./dev-keys";
import type { KvEntry } from "./kv-namespace";
import { withKv } from "./kv-store";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export interface LocalServer {
  url: string;
  /** What the server printed so far (its logs), across restarts. */
  output(): string;
  stop(): Promise<void>;
  /** The --persist-to directory: its KV, Durable Objects and alarms. */
  state: string;
  /** The server's process group (wrangler or serve.ts, esbuild, workerd), while it runs. */
  processGroup(): number | undefined;
  /** Kills the whole process group at once (SIGKILL: no shutdown), keeping the state. */
  kill(): Promise<void>;
  /** Starts the server again on the same state, on the same port unless `newPort`. */
  restart(options?: { newPort?: boolean }): Promise<void>;
}

export interface ServerKey {
  key: string;
  keyId: string;
  customerId: string;
  environment: Environment;
}

/**
 * Keys written into the server's own store before it starts, with limits high
 * enough that load tests measure the service rather than its rate limiter.
 */
export async function seedKeys(
  state: string,
  specs: { customerId: string; environment: Environment }[],
): Promise<ServerKey[]> {
  const keys: ServerKey[] = [];
  const entries: KvEntry[] = [];
  for (const spec of specs) {
    const { key, hash, record } = await issueApiKey(spec);
    record.rateLimits = Object.fromEntries(
      ENDPOINT_TYPES.map((type) => [type, { limit: 10_000_000, windowSeconds: 60 }]),
    );
    entries.push(...apiKeyWrites(hash, record));
    keys.push({ key, keyId: record.keyId, ...spec });
  }
  await withKv({ target: "--local", persistTo: state }, "API_KEYS", (kv) => kv.putAll(entries));
  return keys;
}

export async function startLocalServer(
  options: {
    readyTimeoutMs?: number;
    vars?: Record<string, string>;
    prepare?: (state: string) => Promise<void>;
    config?: string;
    /** false: served by bench/serve.ts, without wrangler dev's DevTools session and trace collector (for benchmarks; see there). */
    devTooling?: boolean;
    /** Started as a reader does, `npm run dev -- --port N` (its own --var flags, wrangler.toml's [dev]; no predev seeding). */
    viaDevScript?: boolean;
    /** A file that gets what the server prints as well, for readers in other processes (a shared server's tests). */
    logTo?: string;
  } = {},
): Promise<LocalServer> {
  let port = await freePort();
  const state = mkdtempSync(join(tmpdir(), "wrangler-state-"));
  await options.prepare?.(state);
  // The required secrets as wrangler reads them (so it does not warn that they are missing): `npm run
  // dev` names their file itself (package.json), any other server gets the same file, and no .dev.vars.
  const secrets = options.viaDevScript ? [] : ["--env-file", DEV_SECRETS_FILE];
  const vars = [
    ...secrets,
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const config = options.config ? ["--config", options.config] : [];
  let output = "";
  let child: ChildProcess | undefined;

  // Signals the whole process group (wrangler, esbuild, workerd), then waits for wrangler to exit.
  const signal = async (name: "SIGTERM" | "SIGKILL", graceMs: number) => {
    const running = child;
    if (!running?.pid || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    killGroup(running.pid, name);
    const timer = setTimeout(() => killGroup(running.pid, "SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
    // wrangler may exit before workerd: make sure nothing of the group is left holding the port.
    killGroup(running.pid, "SIGKILL");
  };

  const launch = async () => {
    const interactive = "--show-interactive-dev-session=false";
    const [command, args] =
      options.devTooling === false
        ? ["tsx", ["bench/serve.ts", ...config, "--port", String(port), "--persist-to", state, ...vars]]
        : options.viaDevScript
          ? [
              "npm",
              [
                "run",
                "--ignore-scripts",
                "dev",
                "--",
                ...config,
                "--port",
                String(port),
                "--persist-to",
                state,
                interactive,
                ...vars,
              ],
            ]
          : [
              "wrangler",
              [
                "dev",
                ...config,
                "--ip",
                "127.0.0.1",
                "--port",
                String(port),
                "--persist-to",
                state,
                interactive,
                ...vars,
              ],
            ];
    const started = spawn(command, args, {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" },
    });
    child = started;
    const from = output.length;
    await new Promise<void>((resolve, reject) => {
      const timeoutMs = options.readyTimeoutMs ?? 60_000;
      const timer = setTimeout(
        () => reject(new Error(`${command} not ready within ${timeoutMs} ms:\n${output.slice(from)}`)),
        timeoutMs,
      );
      // Only this launch's output is searched, and only until the banner: searching all of
      // it for every chunk made the harness's own work grow with the logs, which slowed a
      // benchmark's load generator (in the same process) for the rest of its run.
      let ready = false;
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (options.logTo) appendFileSync(options.logTo, chunk);
        if (!ready && output.slice(from).includes("Ready on")) {
          ready = true;
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout!.on("data", onData);
      started.stderr!.on("data", onData);
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} exited with ${code}:\n${output.slice(from)}`));
      });
    });
  };

  const stop = async () => {
    await signal("SIGTERM", 5_000);
    rmSync(state, { recursive: true, force: true });
  };
  // freePort() lets go of the port before the server binds it, and in between anything on
  // the machine may take it (an outgoing connection's local port, another test's server).
  // Then the server exits at once, and starts again on another port.
  const launchOnFreePort = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await launch();
      } catch (error) {
        if (attempt === 5 || !/Address already in use|EADDRINUSE/.test(String(error))) throw error;
        killGroup(child?.pid, "SIGKILL"); // whatever of the failed start is still running
        port = await freePort();
      }
    }
  };

  try {
    await launchOnFreePort();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    output: () => output,
    stop,
    state,
    processGroup: () => child?.pid,
    kill: () => signal("SIGKILL", 5_000),
    async restart({ newPort = false } = {}) {
      await signal("SIGTERM", 5_000);
      if (newPort) port = await freePort();
      try {
        await (newPort ? launchOnFreePort() : launch());
      } catch (error) {
        await stop();
        throw error;
      }
    },
  };
}
