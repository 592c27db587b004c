// The operator tools' access to KV, through wrangler so that `--local` is the
// very store `wrangler dev` reads and `--remote` the deployed one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Target = "--local" | "--remote";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

function wrangler(args: string[]): string {
  return execFileSync("wrangler", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export interface KvEntry {
  key: string;
  value: string;
  metadata?: unknown;
}

export function kvPutAll(entries: KvEntry[], target: Target, binding = "API_KEYS", persistTo?: string): void {
  const dir = mkdtempSync(join(tmpdir(), "kv-"));
  try {
    const file = join(dir, "entries.json");
    writeFileSync(file, JSON.stringify(entries));
    wrangler(["kv", "bulk", "put", file, "--binding", binding, target, ...(persistTo ? ["--persist-to", persistTo] : [])]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function kvGet(key: string, target: Target): string | null {
  // wrangler prints the value plus a newline, or "Value not found" (exit code 0).
  const output = wrangler(["kv", "key", "get", key, "--binding", "API_KEYS", target, "--text"]).replace(/\n$/, "");
  return output === "Value not found" ? null : output;
}

export function kvList(prefix: string, target: Target): { name: string; metadata?: unknown }[] {
  return JSON.parse(wrangler(["kv", "key", "list", "--binding", "API_KEYS", "--prefix", prefix, target]));
}
