// Starts `wrangler dev` for black-box tests: loopback only, a free port, its own
// state directory, bounded in time, and stopped by its own process group.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kvPutAll } from "../scripts/wrangler-kv";
import type { Environment } from "../src/environment";
import { issueApiKey, kvKey } from "../src/keys/api-key";
import { ENDPOINT_TYPES } from "../src/rate-limit/endpoint-types";

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

export interface LocalServer {
  url: string;
  /** What the server printed so far (its logs). */
  output(): string;
  stop(): Promise<void>;
}

export interface ServerKey {
  key: string;
  customerId: string;
  environment: Environment;
}

/**
 * Keys written into the server's own store before it starts, with limits high
 * enough that load tests measure the service rather than its rate limiter.
 */
export async function seedKeys(state: string, specs: { customerId: string; environment: Environment }[]): Promise<ServerKey[]> {
  const keys: ServerKey[] = [];
  const entries = [];
  for (const spec of specs) {
    const { key, hash, record } = await issueApiKey(spec);
    record.rateLimits = Object.fromEntries(ENDPOINT_TYPES.map((type) => [type, { limit: 10_000_000, windowSeconds: 60 }]));
    entries.push({ key: kvKey.byHash(hash), value: JSON.stringify(record) });
    keys.push({ key, ...spec });
  }
  kvPutAll(entries, "--local", "API_KEYS", state);
  return keys;
}

export async function startLocalServer(
  options: { readyTimeoutMs?: number; vars?: Record<string, string>; prepare?: (state: string) => Promise<void>; config?: string } = {},
): Promise<LocalServer> {
  const port = await freePort();
  const state = mkdtempSync(join(tmpdir(), "wrangler-state-"));
  await options.prepare?.(state);
  const vars = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const config = options.config ? ["--config", options.config] : [];
  const args = ["dev", ...config, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state, "--show-interactive-dev-session=false", ...vars];
  const child: ChildProcess = spawn("wrangler", args, {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" },
  });
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // Already gone.
          }
          resolve(undefined);
        }, 5_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    rmSync(state, { recursive: true, force: true });
  };
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev not ready within ${options.readyTimeoutMs ?? 60_000} ms:\n${output}`)), options.readyTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited with ${code}:\n${output}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
