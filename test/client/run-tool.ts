import { spawn } from "node:child_process";

export interface ToolRun {
  status: number | null;
  stdout: string;
  /** Its lines, without blanks and npm's engine warnings. */
  stderr: string[];
  ms: number;
  /** The largest resident set of its processes, in KiB, when asked for (`measure`): GNU time's %M. */
  peakRssKb?: number;
}

const PEAK_RSS = /^peak-rss-kb (\d+)$/;

/** Runs a tool of scripts/ as a user does (`npx tsx`), with no API key or DEBUG from this process's environment. */
export function runTool(
  script: string,
  args: readonly string[],
  extraEnv: Record<string, string> = {},
  { measure = false }: { measure?: boolean } = {},
): Promise<ToolRun> {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  delete env.CONTACT_INFO_API_KEY;
  delete env.DEBUG;
  const command = ["npx", "tsx", script, ...args];
  const [file, ...rest] = measure ? ["/usr/bin/time", "--quiet", "-f", "peak-rss-kb %M", ...command] : command;
  const child = spawn(file!, rest, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once("exit", (status) => {
      const lines = stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
      const peak = lines.map((line) => PEAK_RSS.exec(line)?.[1]).find((kb) => kb !== undefined);
      resolve({
        status,
        stdout,
        stderr: lines.filter((line) => !PEAK_RSS.test(line)),
        ms: Date.now() - started,
        ...(peak === undefined ? {} : { peakRssKb: Number(peak) }),
      });
    }),
  );
}
