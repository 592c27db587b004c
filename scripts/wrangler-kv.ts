// The operator tools' access to the deployed KV (`--remote`), through wrangler, which
// holds the login (the local store: local-kv.ts).
//
// Values (webhook secrets, the directory's names, emails and phones) never pass
// through wrangler's logger, which copies everything it prints into a log file
// under the user's config folder (WRANGLER_LOG_PATH): they are written from a
// private temporary file deleted after the call, read from wrangler's raw stdout
// (`kv key get` without `--text`), and never put on a command line.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { CliError } from "./cli";
import type { KvEntry, KvStore } from "./kv-namespace";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

function wrangler(args: string[]): string {
  try {
    return execFileSync("wrangler", [...args, "--remote"], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw wranglerFailure(args, error as WranglerError);
  }
}

interface WranglerError {
  code?: string;
  signal?: NodeJS.Signals | null;
  stderr?: string;
  stdout?: string;
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** What went wrong, in one line with the fix: wrangler's own message is dozens of lines. */
export function wranglerFailure(args: readonly string[], error: WranglerError): CliError {
  if (error.code === "ENOENT")
    return new CliError(
      "wrangler is not on the PATH: run the tool through npm (npm run keys -- …, npm run directory -- …)",
    );
  if (error.signal) return new CliError(`interrupted (${error.signal})`, 128 + (constants.signals[error.signal] ?? 0));
  const output = `${error.stderr ?? ""}\n${error.stdout ?? ""}`.replace(ANSI, "");
  if (/CLOUDFLARE_API_TOKEN|not logged in|wrangler login|Authentication error|Invalid access token/i.test(output)) {
    return new CliError(
      "not logged in to Cloudflare: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then run this again",
    );
  }
  if (/No KV namespace ID found for binding/.test(output)) {
    return new CliError(
      "the Worker has not been deployed to this account yet: run `npm run deploy` first (it creates the KV namespaces)",
    );
  }
  const reason =
    output.split("\n").find((line) => /✘|\[ERROR\]|Error:/.test(line)) ??
    output.split("\n").find((line) => line.trim() !== "") ??
    "no output";
  return new CliError(
    `wrangler ${args.slice(0, 3).join(" ")} failed: ${reason.replace(/^.*?(✘ \[ERROR\]|Error:)\s*/, "").trim()}`,
  );
}

// Node dies at once on a signal nobody listens for, before `finally` could delete the
// temporary file. A Ctrl-C reaches wrangler too: with a listener, wrangler's exit ends
// the call, the file is deleted, and the listener then ends the process as the signal would.
let signalsHeld = false;
function holdSignalsUntilCleanedUp(): void {
  if (signalsHeld) return;
  signalsHeld = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => process.exit(128 + constants.signals[signal]));
  }
}

function putAll(entries: readonly KvEntry[], binding: string): void {
  holdSignalsUntilCleanedUp();
  // mkdtemp makes the folder 0700; the file is 0600 as well, should the folder be moved.
  const dir = mkdtempSync(join(tmpdir(), "kv-"));
  try {
    const file = join(dir, "entries.json");
    writeFileSync(file, JSON.stringify(entries), { mode: 0o600 });
    wrangler(["kv", "bulk", "put", file, "--binding", binding]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NOT_FOUND = "Value not found\n";

// wrangler kv bulk put takes at most 10,000 pairs per call.
const WRITES_PER_CALL = 10_000;

/** The deployed namespace bound as `binding`. */
export function remoteKv(binding: string): KvStore {
  return {
    async get(key) {
      // Without --text, wrangler writes the value's bytes to stdout itself; with it, the value
      // goes through its logger and so into its log file. "Value not found" is logged (a line).
      const output = wrangler(["kv", "key", "get", key, "--binding", binding]);
      return output === NOT_FOUND ? null : output;
    },
    async list(prefix) {
      return JSON.parse(wrangler(["kv", "key", "list", "--binding", binding, "--prefix", prefix]));
    },
    async putAll(entries) {
      for (let start = 0; start < entries.length; start += WRITES_PER_CALL) {
        putAll(entries.slice(start, start + WRITES_PER_CALL), binding);
        if (entries.length > WRITES_PER_CALL)
          console.error(`  wrote ${Math.min(start + WRITES_PER_CALL, entries.length)} of ${entries.length} KV entries`);
      }
    },
  };
}
