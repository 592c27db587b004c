import type { SourceCall } from "../contact-info/batch-contract";
import type { SourceReport } from "../contact-info/batch-views";
import { type ContactField, mergeContacts } from "../contact-info/contact";
import { VendorHeldError } from "./call-gate";
import { VendorBudgetExhaustedError } from "./ceiling-gate";
import {
  type ContactProvider,
  type FindRequest,
  type FindResult,
  PermanentProviderError,
  TransientProviderError,
} from "./provider";
import { VendorRateLimitedError } from "./upstream";

/** What one provider said on this attempt, how long it took, and whether it answered its rate limit (logs, scorecards). */
export interface ProviderReport extends SourceReport {
  ms: number;
  rateLimited?: true;
}

export interface WaterfallResult extends FindResult {
  /** Every requested field has a value at or above the satisfying confidence. */
  satisfied: boolean;
  /** Providers that failed in a way a later attempt might not. */
  transientFailures: number;
  /** Of those, the providers our rate governor held back (never asked): an attempt they alone spoil does not count. */
  held: number;
  /** The longest Retry-After any provider asked for. */
  retryAfterSeconds: number | undefined;
  /** One per provider, in order. */
  reports: ProviderReport[];
}

/**
 * Asks providers in order until every requested field is satisfied. A provider
 * that cannot answer (a provider error) is reported unavailable and passed over,
 * so it never stops the others answering; any other error is a fault of ours and
 * is thrown. Results are merged: one entry per address or number, the most
 * confident kept. Providers not asked are reported skipped: a vendor at its daily
 * ceiling too, with that reason, and the next one is asked.
 */
export async function runWaterfall(
  providers: readonly ContactProvider[],
  request: FindRequest,
  satisfyingConfidence: number,
): Promise<WaterfallResult> {
  let merged: FindResult = { emails: [], phones: [] };
  const reports: ProviderReport[] = [];
  let transientFailures = 0;
  let held = 0;
  let retryAfterSeconds: number | undefined;

  for (const provider of providers) {
    if (provider.configured === false || isSatisfied(merged, request.fields, satisfyingConfidence)) {
      reports.push({ name: provider.name, outcome: "skipped", ms: 0 });
      continue;
    }
    const started = Date.now();
    try {
      const found = onlyRequested(await provider.find(request), request.fields);
      merged = mergeContacts(merged, found);
      const any = found.emails.length + found.phones.length > 0;
      reports.push({ name: provider.name, outcome: any ? "found" : "not_found", ms: Date.now() - started });
    } catch (error) {
      if (error instanceof VendorBudgetExhaustedError) {
        reports.push({ name: provider.name, outcome: "skipped", reason: "vendor_budget_exhausted", ms: 0 });
        continue;
      }
      if (!(error instanceof TransientProviderError || error instanceof PermanentProviderError)) throw error;
      if (error instanceof TransientProviderError) {
        transientFailures++;
        if (error instanceof VendorHeldError) held++;
        if (error.retryAfterSeconds !== undefined)
          retryAfterSeconds = Math.max(retryAfterSeconds ?? 0, error.retryAfterSeconds);
      }
      const ms = Date.now() - started;
      reports.push({
        name: provider.name,
        outcome: "unavailable",
        ms,
        ...(error instanceof VendorRateLimitedError ? { rateLimited: true as const } : {}),
      });
    }
  }
  return {
    ...merged,
    satisfied: isSatisfied(merged, request.fields, satisfyingConfidence),
    transientFailures,
    held,
    retryAfterSeconds,
    reports,
  };
}

function isSatisfied(result: FindResult, fields: readonly ContactField[], satisfyingConfidence: number): boolean {
  const confident = (values: { confidence: number }[]) =>
    values.some((value) => value.confidence >= satisfyingConfidence);
  return fields.every((field) => (field === "email" ? confident(result.emails) : confident(result.phones)));
}

function onlyRequested(result: FindResult, fields: readonly ContactField[]): FindResult {
  return {
    emails: fields.includes("email") ? result.emails : [],
    phones: fields.includes("phone") ? result.phones : [],
  };
}

/** The data sources this attempt asked, timed, for their scorecards (verifiers are not timed: see enricher.ts). */
export const sourceCalls = (reports: readonly ProviderReport[], domain: string | undefined): SourceCall[] =>
  reports
    .filter(({ kind, outcome }) => kind === undefined && outcome !== "skipped")
    .map(({ name, ms, rateLimited, outcome }) => ({
      name,
      ms,
      ...(rateLimited ? { rateLimited } : {}),
      ...(outcome === "found" ? { found: true as const } : {}),
      ...(domain === undefined ? {} : { domain }),
    }));
