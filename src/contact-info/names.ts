import type { NormalizedPerson } from "./person";

// How a name is folded for lookups: the one rule the finders, the directory and the
// person's identity keys (person-keys.ts) share, so that any two inputs a finder would
// ask about alike are one person to erasure and the do-not-enrich list too.

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

type PersonName = Pick<NormalizedPerson, "firstName" | "lastName" | "fullName">;

/** The name a lookup uses: first and last name when both are given, else the full name. */
const lookupName = (person: PersonName): string | readonly string[] =>
  person.firstName && person.lastName ? [person.firstName, person.lastName] : (person.fullName ?? "");

/** First and last name words of a person, folded, as the finders ask for them; null without both. */
export function firstAndLast(person: PersonName): { first: string; last: string } | null {
  const name = splitName(lookupName(person));
  const first = asciiWord(name.first);
  const last = asciiWord(name.last);
  return first && last ? { first, last } : null;
}

/**
 * Every name a lookup could have used for the person (first + last, and the full name),
 * each as "first last" folded as the finders fold it; a word that folds to nothing (a
 * name in another script) stays as written, Unicode-normalized and lower-cased, so it
 * still identifies its person however it was composed.
 */
export function nameIdentities(person: PersonName): string[] {
  const names: (string | readonly string[])[] = [];
  if (person.firstName && person.lastName) names.push([person.firstName, person.lastName]);
  if (person.fullName) names.push(person.fullName);
  const identities = names.map((name) => {
    const { first, last } = splitName(name);
    return [first, last]
      .map((word) => asciiWord(word) || word)
      .filter((word) => word !== "")
      .join(" ");
  });
  return [...new Set(identities)].filter((identity) => identity !== "");
}
