import type * as z from "zod";
import type { FieldError } from "./problem";

// An error answer is bounded whatever the body: a 2 MB body of bad items or unknown keys
// must not buy a 4 MB answer. A problem lists its first MAX_LISTED_ERRORS errors with their
// count (problem.ts), its detail the first MAX_DETAIL_ERRORS, and an unknown-keys message
// names the first MAX_NAMED_KEYS keys, each cut to MAX_NAMED_KEY_LENGTH characters.
const MAX_DETAIL_ERRORS = 3;
const MAX_NAMED_KEYS = 5;
const MAX_NAMED_KEY_LENGTH = 40;

const andMore = (shown: number, total: number): string => (total > shown ? ` (and ${total - shown} more)` : "");

/** Input echoed in a problem, cut to a few characters. */
export const cut = (key: string): string =>
  key.length > MAX_NAMED_KEY_LENGTH ? `${key.slice(0, MAX_NAMED_KEY_LENGTH)}…` : key;
const quoted = (key: string): string => `'${cut(key)}'`;

/** The first few keys, quoted, then how many others there are. */
function namedKeys(keys: readonly string[]): string {
  return keys.slice(0, MAX_NAMED_KEYS).map(quoted).join(", ") + andMore(MAX_NAMED_KEYS, keys.length);
}

/** One zod issue as a field error; `unknown` names what an unrecognized key is (a field, a query parameter). */
export function fieldErrorOf(issue: z.core.$ZodIssue, unknown = "unknown field"): FieldError {
  if (issue.code === "unrecognized_keys") {
    const path = [...issue.path.map(String), ...issue.keys.slice(0, 1).map((key) => cut(key))];
    return { path: path.join("."), message: `${unknown} ${namedKeys(issue.keys)}` };
  }
  return { path: issue.path.map(String).join("."), message: issue.message };
}

/** A detail's list of errors: the first few, "path message", then how many others there are. */
export function describeErrors(errors: readonly FieldError[]): string {
  const listed = errors.slice(0, MAX_DETAIL_ERRORS).map(({ path, message }) => `${path} ${message}`.trim());
  return listed.join("; ") + andMore(MAX_DETAIL_ERRORS, errors.length);
}
