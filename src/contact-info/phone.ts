/**
 * A phone number in E.164 (`+` then 8 to 15 digits, no leading zero), from the
 * common written forms: spaces, dots, dashes, parentheses, and a `00` prefix.
 * Numbers without a country code are refused rather than guessed.
 */
export function toE164(raw: string): string | null {
  const compact = raw.trim().replace(/[\s().-]/g, "");
  const international = compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
  return /^\+[1-9]\d{7,14}$/.test(international) ? international : null;
}
