// Address patterns, most common first. Learned per domain from directory entries.
export const EMAIL_PATTERNS = [
  "first.last",
  "firstlast",
  "flast",
  "first",
  "first_last",
  "f.last",
  "firstl",
  "last.first",
  "last",
] as const;
export type EmailPattern = (typeof EMAIL_PATTERNS)[number];

export function applyPattern(pattern: EmailPattern, first: string, last: string): string {
  const f = first[0] ?? "";
  const l = last[0] ?? "";
  switch (pattern) {
    case "first.last":
      return `${first}.${last}`;
    case "firstlast":
      return `${first}${last}`;
    case "flast":
      return `${f}${last}`;
    case "first":
      return first;
    case "first_last":
      return `${first}_${last}`;
    case "f.last":
      return `${f}.${last}`;
    case "firstl":
      return `${first}${l}`;
    case "last.first":
      return `${last}.${first}`;
    case "last":
      return last;
  }
}

/** The pattern that produces `localPart` from the name, if any. */
export function detectPattern(first: string, last: string, localPart: string): EmailPattern | null {
  return EMAIL_PATTERNS.find((pattern) => applyPattern(pattern, first, last) === localPart.toLowerCase()) ?? null;
}

/** The most frequent pattern among samples, with how many samples agree. */
export function dominantPattern(patterns: readonly EmailPattern[]): { pattern: EmailPattern; samples: number } | null {
  const counts = new Map<EmailPattern, number>();
  for (const pattern of patterns) counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  let best: { pattern: EmailPattern; samples: number } | null = null;
  for (const [pattern, samples] of counts) if (!best || samples > best.samples) best = { pattern, samples };
  return best;
}
