// Who each item of a batch is (name, else email or LinkedIn URL) and its externalId (for a CRM
// list, the record id), read from the batch's items once per batch, so a diff names people, not
// row numbers. Held in memory only, never stored.
import type { Client } from "../client/src/index";
import type { Person } from "./crm-diff";

let held: { batchId: string; people: Promise<Map<number, Person>> } | undefined;

async function read(client: Client, batchId: string): Promise<Map<number, Person>> {
  const people = new Map<number, Person>();
  for await (const item of client.items(batchId)) {
    const { input } = item;
    const name = input.fullName ?? [input.firstName, input.lastName].filter(Boolean).join(" ");
    people.set(item.index, { name: name || input.email || input.linkedinUrl || "", externalId: item.externalId });
  }
  return people;
}

/** The batch's people; a batch that cannot be read (deleted, expired) names nobody rather than failing the diff. */
export function peopleOf(client: Client, batchId: string): Promise<Map<number, Person>> {
  if (held?.batchId !== batchId)
    held = { batchId, people: read(client, batchId).catch(() => new Map<number, Person>()) };
  return held.people;
}
