// The operator tools' access to KV, through wrangler so that `--local` is the
// very store `wrangler dev` reads and `--remote` the deployed one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CliError } from "./cli";

export type Target = "--local" | "--remote";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

function wrangler(args: string[]): string {
  try {
    return execFileSync("wrangler", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw wranglerFailure(args, error as { code?: string; stderr?: string; stdout?: string });
  }
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** What went wrong, in one line with the fix: wrangler's own message is dozens of lines. */
export function wranglerFailure(args: readonly string[], error: { code?: string; stderr?: string; stdout?: string }): CliError {
  if (error.code === "ENOENT")
    return new CliError("wrangler is not on the PATH: run the tool through npm (npm run keys -- …, npm run directory -- …)");
  const output = `${error.stderr ?? ""}\n${error.stdout ?? ""}`.replace(ANSI, "");
  if (/CLOUDFLARE_API_TOKEN|not logged in|wrangler login|Authentication error|Invalid access token/i.test(output)) {
    return new CliError("not logged in to Cloudflare: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then run this again");
  }
  if (/No KV namespace ID found for binding/.test(output)) {
    return new CliError("the Worker has not been deployed to this account yet: run `npm run deploy` first (it creates the KV namespaces)");
  }
  const reason =
    output.split("\n").find((line) => /✘|\[ERROR\]|Error:/.test(line)) ??
    output.split("\n").find((line) => line.trim() !== "") ??
    "no output";
  return new CliError(`wrangler ${args.slice(0, 3).join(" ")} failed: ${reason.replace(/^.*?(✘ \[ERROR\]|Error:)\s*/, "").trim()}`);
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
