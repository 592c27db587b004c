// Structured logs carry ids, counts, outcomes and timings only: never names,
// emails, phones or API keys. Callers pass the fields explicitly for that reason.
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export function log(event: string, fields: LogFields = {}): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/** Logs a failure by its type and message; ours never carry personal data. */
export function logError(event: string, error: unknown, fields: LogFields = {}, level: "warn" | "error" = "error"): void {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  console[level](JSON.stringify({ event, error: name, message, ...fields }));
}
