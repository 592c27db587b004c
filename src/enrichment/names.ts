import type { NormalizedPerson } from "../contact-info/person";

/** Lower-case ASCII letters only: "Zoë O'Neil" → "zoeoneil". For keys and address local parts. */
export const asciiWord = (value: string): string =>
  value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** First and last name words of a person, from first/last or from the full name. */
export function firstAndLast(person: Pick<NormalizedPerson, "firstName" | "lastName" | "fullName">): { first: string; last: string } | null {
  const words = person.firstName && person.lastName ? [person.firstName, person.lastName] : (person.fullName?.split(" ") ?? []);
  if (words.length < 2) return null;
  const first = asciiWord(words[0]!);
  const last = asciiWord(words[words.length - 1]!);
  return first && last ? { first, last } : null;
}
