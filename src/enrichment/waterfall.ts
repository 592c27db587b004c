import type { ContactField, Email, Phone } from "../contact-info/contact";
import { type ContactProvider, type FindRequest, type FindResult, TransientProviderError } from "./provider";

export interface ProviderReport {
  provider: string;
  outcome: "found" | "not_found" | "transient_error" | "permanent_error" | "skipped";
  ms: number;
}

export interface WaterfallResult extends FindResult {
  /** Every requested field has a value at or above the satisfying confidence. */
  satisfied: boolean;
  /** Providers that failed in a way a later attempt might not. */
  transientFailures: number;
  /** Providers that gave an answer, found or not. */
  answered: number;
  /** The longest Retry-After any provider asked for. */
  retryAfterSeconds: number | undefined;
  reports: ProviderReport[];
}

/**
 * Asks providers in order until every requested field is satisfied. A provider
 * that fails is noted and passed over, so it never stops the others answering.
 * Results are merged: one entry per address or number, the most confident kept.
 */
export async function runWaterfall(
  providers: readonly ContactProvider[],
  request: FindRequest,
  satisfyingConfidence: number,
  now: () => number = Date.now,
): Promise<WaterfallResult> {
  let merged: FindResult = { emails: [], phones: [] };
  const reports: ProviderReport[] = [];
  let transientFailures = 0;
  let answered = 0;
  let retryAfterSeconds: number | undefined;

  for (const provider of providers) {
    if (isSatisfied(merged, request.fields, satisfyingConfidence)) {
      reports.push({ provider: provider.name, outcome: "skipped", ms: 0 });
      continue;
    }
    const started = now();
    try {
      const found = await provider.find(request);
      answered++;
      merged = mergeResults(merged, onlyRequested(found, request.fields));
      const any = found.emails.length + found.phones.length > 0;
      reports.push({ provider: provider.name, outcome: any ? "found" : "not_found", ms: now() - started });
    } catch (error) {
      const transient = error instanceof TransientProviderError;
      if (transient) {
        transientFailures++;
        if (error.retryAfterSeconds !== undefined) retryAfterSeconds = Math.max(retryAfterSeconds ?? 0, error.retryAfterSeconds);
      }
      reports.push({ provider: provider.name, outcome: transient ? "transient_error" : "permanent_error", ms: now() - started });
    }
  }
  return {
    ...merged,
    satisfied: isSatisfied(merged, request.fields, satisfyingConfidence),
    transientFailures,
    answered,
    retryAfterSeconds,
    reports,
  };
}

function isSatisfied(result: FindResult, fields: readonly ContactField[], satisfyingConfidence: number): boolean {
  const confident = (values: { confidence: number }[]) => values.some((value) => value.confidence >= satisfyingConfidence);
  return fields.every((field) => (field === "email" ? confident(result.emails) : confident(result.phones)));
}

function onlyRequested(result: FindResult, fields: readonly ContactField[]): FindResult {
  return { emails: fields.includes("email") ? result.emails : [], phones: fields.includes("phone") ? result.phones : [] };
}

/** One entry per address (case-insensitive) or number, keeping the most confident; best first. */
export function mergeResults(a: FindResult, b: FindResult): FindResult {
  return {
    emails: keepBest<Email>([...a.emails, ...b.emails], (email) => email.address.toLowerCase()),
    phones: keepBest<Phone>([...a.phones, ...b.phones], (phone) => phone.number),
  };
}

function keepBest<T extends { confidence: number }>(values: T[], key: (value: T) => string): T[] {
  const best = new Map<string, T>();
  for (const value of values) {
    const current = best.get(key(value));
    if (!current || value.confidence > current.confidence) best.set(key(value), value);
  }
  return [...best.values()].sort((x, y) => y.confidence - x.confidence);
}
