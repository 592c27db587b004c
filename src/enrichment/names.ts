import type { NormalizedPerson } from "../contact-info/person";

/** Lower-case ASCII letters only: "Zoë O'Neil" → "zoeoneil". For keys and address local parts. */
export const asciiWord = (value: string): string =>
  value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/**
 * The first and last word of a name ("Ada King Lovelace" → Ada, Lovelace), as
 * written; a single word has an empty last. A string is split at spaces: names
 * arrive trimmed with their whitespace collapsed.
 */
export function splitName(name: string | readonly string[]): { first: string; last: string } {
  const words = typeof name === "string" ? name.split(" ") : name;
  return { first: words[0] ?? "", last: words.length > 1 ? words[words.length - 1]! : "" };
}

/** First and last name words of a person, from first/last or from the full name; null without both. */
export function firstAndLast(
  person: Pick<NormalizedPerson, "firstName" | "lastName" | "fullName">,
): { first: string; last: string } | null {
  const name = splitName(person.firstName && person.lastName ? [person.firstName, person.lastName] : (person.fullName ?? ""));
  const first = asciiWord(name.first);
  const last = asciiWord(name.last);
  return first && last ? { first, last } : null;
}
