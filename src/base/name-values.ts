import * as z from "zod";

// One reader of the `name=value,name=value` lists the operators write (VENDOR_RATE_LIMITS,
// CRM_RATE_LIMITS, VENDOR_PRICES, the live benchmark's --limits): entries comma-separated, each
// trimmed, empty ones skipped.

/** A list's entries, as written (`entry`) and split at their first "=" (no "=": an empty value). */
export function nameValueEntries(text: string): { entry: string; name: string; value: string }[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf("=");
      return at < 0
        ? { entry, name: entry, value: "" }
        : { entry, name: entry.slice(0, at).trim(), value: entry.slice(at + 1).trim() };
    });
}

/**
 * A var of such a list: each value by its name, for names `known` and values `parse` reads (undefined
 * refuses one); an entry that does not fit is an issue that `refusal(entry)` words.
 */
export const nameValues = <T>(
  known: (name: string) => boolean,
  parse: (value: string) => T | undefined,
  refusal: (entry: string) => string,
) =>
  z.string().transform((text, ctx) => {
    const values = new Map<string, T>();
    for (const { entry, name, value } of nameValueEntries(text)) {
      const parsed = known(name) ? parse(value) : undefined;
      if (parsed === undefined) ctx.addIssue({ code: "custom", message: refusal(entry) });
      else values.set(name, parsed);
    }
    return values;
  });
