// Structured logs carry ids, counts, outcomes and timings only: never names,
// emails, phones or API keys. Callers pass the fields explicitly for that reason.
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export function log(event: string, fields: LogFields = {}): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/**
 * A fault the code acts out on purpose (the sandbox's fail.test): an expected
 * failure, so it is logged as a warning, never as an error an operator must chase.
 */
export class DeliberateFault extends Error {
  override readonly name = "DeliberateFault";
}

/** Logs a failure by its type and message (never its stack); ours never carry personal data. A DeliberateFault is a warning. */
export function logError(
  event: string,
  error: unknown,
  fields: LogFields = {},
  level: "warn" | "error" = "error",
): void {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  console[error instanceof DeliberateFault ? "warn" : level](
    JSON.stringify({ event, error: name, message, ...fields }),
  );
}
