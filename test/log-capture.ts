import { vi } from "vitest";

// The one way tests read what the Worker logs: every console line of every level, kept
// in order with its level, instead of printed. Log lines are JSON with an `event`.

type LogLevel = "log" | "warn" | "error";
interface LogLine {
  level: LogLevel;
  line: string;
}

export interface CapturedLogs {
  /** Every line so far, or those of one level. */
  lines(level?: LogLevel): string[];
  /** The lines of one event, parsed, with their `level` and the `raw` line. */
  events(event: string): (Record<string, unknown> & { level: LogLevel; raw: string })[];
  /** Prints again from here on. vi.restoreAllMocks() does it too. */
  restore(): void;
}

/** Captures the logs from now until `restore` (or vi.restoreAllMocks). */
export function captureLogs(): CapturedLogs {
  const captured: LogLine[] = [];
  const spies = (["log", "warn", "error"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((line: unknown) => void captured.push({ level, line: String(line) })),
  );
  return {
    lines: (level) => captured.filter((entry) => level === undefined || entry.level === level).map(({ line }) => line),
    events: (event) =>
      captured
        .filter(({ line }) => line.startsWith("{") && line.includes(`"event":"${event}"`))
        .map(({ level, line }) => ({ ...JSON.parse(line), level, raw: line })),
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

/** The logs `run` printed. */
export async function logsOf(run: () => Promise<unknown>): Promise<CapturedLogs> {
  const logs = captureLogs();
  try {
    await run();
  } finally {
    logs.restore();
  }
  return logs;
}
