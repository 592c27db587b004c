import type { ContactField, Email, Phone } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";

export interface FindRequest {
  person: NormalizedPerson;
  fields: readonly ContactField[];
  /** 1 on the first delivery of the item, 2 on its first retry, and so on. */
  attempt: number;
}

export interface FindResult {
  emails: Email[];
  phones: Phone[];
}

/** Where contact data comes from. Finding nothing is a result, not an error. */
export interface ContactSource {
  readonly name: string;
  find(request: FindRequest): Promise<FindResult>;
}

/** A failure worth retrying: the item goes back to the queue with backoff. */
export class TransientSourceError extends Error {
  override readonly name = "TransientSourceError";
}
