import { spawn } from "node:child_process";

export interface ToolRun {
  status: number | null;
  stdout: string;
  /** Its lines, without blanks and npm's engine warnings. */
  stderr: string[];
  ms: number;
}

/** Runs a tool of scripts/ as a user does (`npx tsx`), with no API key or DEBUG from this process's environment. */
export function runTool(
  script: string,
  args: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<ToolRun> {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  delete env.CONTACT_INFO_API_KEY;
  delete env.DEBUG;
  const child = spawn("npx", ["tsx", script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once("exit", (status) =>
      resolve({
        status,
        stdout,
        stderr: stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn")),
        ms: Date.now() - started,
      }),
    ),
  );
}
