import type { NormalizedPerson } from "../contact-info/person";
import { PermanentProviderError } from "./provider";

/**
 * A verifier's judgement of one address. `invalid` covers every address that must
 * never be returned (undeliverable, disposable, a spam trap); `unknown` is "could
 * not tell", which lets the next verifier try.
 */
export const VERDICTS = ["valid", "catch_all", "unknown", "invalid"] as const;
export type VerdictResult = (typeof VERDICTS)[number];

export interface Verdict {
  result: VerdictResult;
  /** A role or team mailbox (info@, sales@), not a person's. */
  role: boolean;
}

/**
 * An email verification service. Like a ContactProvider, it throws
 * TransientProviderError or PermanentProviderError when it cannot answer; an
 * outage is never a verdict.
 */
export interface EmailVerifier {
  readonly name: string;
  /** false for a verifier named in the configuration without its secret: never asked. */
  readonly configured?: false;
  verify(address: string, person: NormalizedPerson): Promise<Verdict>;
}

export const unconfiguredVerifier = (name: string): EmailVerifier => ({
  name,
  configured: false,
  verify: () => Promise.reject(new PermanentProviderError(`${name}: not configured`)),
});
