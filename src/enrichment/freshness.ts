import type { Contacts } from "../contact-info/contact";

// How fresh a contact is (docs/storage.md, RESULT_CACHE): each email and phone carries `verifiedAt`, the
// time a verifier last judged it or, where none did, the time it was found. Pure, so the rules are tested
// without a cache.

const DAY_MS = 86_400_000;

/** Whether `at` lies within `maxAgeDays` of `now`; a value without a time is too old. */
export const youngerThan = (at: string | undefined, maxAgeDays: number, now: number): boolean =>
  at !== undefined && now - Date.parse(at) <= maxAgeDays * DAY_MS;

/**
 * What a cached result is good for under the batch's `maxAgeDays`: served as it is (`fresh`); its emails
 * verified again (`reverify`: only emails are too old, and a verifier can judge them); or nothing, the
 * person looked up again (`refind`: a phone too old, which nothing verifies, or maxAgeDays 0).
 */
export function cachedFreshness(
  { emails, phones }: Contacts,
  maxAgeDays: number,
  now: number,
  canVerify: boolean,
): "fresh" | "reverify" | "refind" {
  if (maxAgeDays === 0) return "refind";
  const old = ({ verifiedAt }: { verifiedAt?: string | undefined }) => !youngerThan(verifiedAt, maxAgeDays, now);
  if (phones.some(old)) return "refind";
  if (!emails.some(old)) return "fresh";
  return canVerify ? "reverify" : "refind";
}

/** The values found at `at`, each stamped with it unless it carries a time already. */
export const stampFound = <T extends { verifiedAt?: string | undefined }>(values: readonly T[], at: string): T[] =>
  values.map((value) => (value.verifiedAt === undefined ? { ...value, verifiedAt: at } : value));
