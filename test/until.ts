// The one polling helper, for the workerd tests (through test/helpers.ts) and the
// Node black-box tests (through test/blackbox-helpers.ts): it imports nothing, so
// it loads in both.

export interface UntilOptions<T> {
  /** What is awaited, for the failure message: "batch 42 completed". */
  what: string;
  /** When the value read is the one awaited; by default, when it is truthy. */
  done?: (value: T) => boolean;
  timeoutMs?: number;
  intervalMs?: number;
  /** Treat a failed read as "not yet" (a server restarting); by default it fails the wait at once. */
  retryErrors?: boolean;
}

/**
 * Reads until `done(value)`, then returns that value. After `timeoutMs` it fails
 * with `what` and the last value (or error) read, so a timeout says what it saw.
 */
export async function until<T>(read: () => T | Promise<T>, options: UntilOptions<T>): Promise<T> {
  const { what, done = Boolean, timeoutMs = 20_000, intervalMs = 50, retryErrors = false } = options;
  const deadline = Date.now() + timeoutMs;
  let last = "nothing read yet";
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = `last read ${describe(value)}`;
    } catch (error) {
      if (!retryErrors) throw error;
      last = `last read failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${last})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
