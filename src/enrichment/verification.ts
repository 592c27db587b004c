import type { SourceReport } from "../contact-info/batch-views";
import type { Email } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";
import { VendorBudgetExhaustedError } from "./ceiling-gate";
import { youngerThan } from "./freshness";
import { PermanentProviderError, TransientProviderError } from "./provider";
import type { VerdictCache } from "./verdict-cache";
import type { EmailVerifier, Verdict } from "./verifier";

export interface VerificationOptions {
  verifiers: readonly EmailVerifier[];
  /** Absent where no verdict may be cached (the sandbox, a message without its customer). */
  cache?: VerdictCache;
  /** How old a cached verdict may be to be used (the batch's maxAgeDays); absent: any the cache holds. */
  maxAgeDays?: number;
}

export interface Verified {
  /** The emails worth returning, each with the verifiers' status; invalid ones left out. */
  emails: Email[];
  /** One per verifier, in order (kind `verifier`); none when there is nothing to verify. */
  reports: SourceReport[];
}

// `spent`: skipped at the vendor's daily ceiling (reported skipped, with that reason).
type VerifierOutcome = "found" | "unavailable" | "skipped" | "spent";
// How one verifier's answers on an item's addresses add up: any failure shows.
const RANK: Record<VerifierOutcome, number> = { skipped: 0, spent: 1, found: 2, unavailable: 3 };

/**
 * Verifies each email with the verifiers in order, until one tells (valid,
 * catch_all or invalid); `unknown` or an outage passes to the next. A verifier
 * that cannot answer never makes an address invalid: with no verdict the status
 * is `unknown` (also when the verifiers were at their daily ceiling), or `unverified`
 * when no verifier is configured. A cached verdict asks none.
 */
export async function verifyEmails(
  emails: readonly Email[],
  person: NormalizedPerson,
  options: VerificationOptions,
): Promise<Verified> {
  if (emails.length === 0) return { emails: [], reports: [] };
  const outcomes = new Map<string, VerifierOutcome>(options.verifiers.map((verifier) => [verifier.name, "skipped"]));
  const note = (name: string, outcome: VerifierOutcome) => {
    if (RANK[outcome] > RANK[outcomes.get(name) ?? "skipped"]) outcomes.set(name, outcome);
  };

  const judged = await Promise.all(
    emails.map(async (email): Promise<Email | null> => {
      const { verdict, verifiedAt = email.verifiedAt } = await judge(email.address, person, options, note);
      if (verdict === "unverified") return { ...email, status: "unverified" };
      if (verdict.result === "invalid") return null;
      const { address, type, confidence, source } = email;
      return {
        address,
        type,
        status: verdict.result,
        confidence,
        source,
        ...(verdict.role ? { role: true as const } : {}),
        // When a verifier last told; an address none could judge keeps the time it was found.
        ...(verifiedAt === undefined ? {} : { verifiedAt }),
      };
    }),
  );
  return {
    emails: judged.filter((email): email is Email => email !== null),
    reports: [...outcomes].map(
      ([name, outcome]): SourceReport =>
        outcome === "spent"
          ? { name, outcome: "skipped", kind: "verifier", reason: "vendor_budget_exhausted" }
          : { name, outcome, kind: "verifier" },
    ),
  };
}

/** A verdict, and when a verifier gave it (absent: none told). */
type Judgement = { verdict: Verdict | "unverified"; verifiedAt?: string };

async function judge(
  address: string,
  person: NormalizedPerson,
  { verifiers, cache, maxAgeDays }: VerificationOptions,
  note: (name: string, outcome: VerifierOutcome) => void,
): Promise<Judgement> {
  const cached = await cache?.get(address);
  if (cached && (maxAgeDays === undefined || youngerThan(cached.verifiedAt, maxAgeDays, Date.now()))) {
    note(cached.verifier, "found");
    return { verdict: cached, verifiedAt: cached.verifiedAt };
  }
  let undecided: Verdict | undefined;
  for (const verifier of verifiers) {
    if (verifier.configured === false) continue;
    try {
      const verdict = await verifier.verify(address, person);
      note(verifier.name, "found");
      if (verdict.result !== "unknown") {
        const verifiedAt = new Date().toISOString();
        await cache?.put(address, verdict, verifier.name, verifiedAt);
        return { verdict, verifiedAt };
      }
      undecided = { result: "unknown", role: verdict.role || (undecided?.role ?? false) };
    } catch (error) {
      // At its daily ceiling: passed over for the next verifier, as an outage is, but reported as what it is.
      if (error instanceof VendorBudgetExhaustedError) {
        note(verifier.name, "spent");
        undecided ??= { result: "unknown", role: false };
        continue;
      }
      if (!(error instanceof TransientProviderError || error instanceof PermanentProviderError)) throw error;
      note(verifier.name, "unavailable");
      undecided ??= { result: "unknown", role: false };
    }
  }
  return { verdict: undecided ?? "unverified" };
}
