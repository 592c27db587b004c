import type { ContactField, Email, Phone } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";

export interface FindRequest {
  person: NormalizedPerson;
  fields: readonly ContactField[];
  /** 1 on the first delivery of the item, 2 on its first retry, and so on. */
  attempt: number;
}

/** What one provider found. Empty lists mean "not found", which is an answer, not an error. */
export interface FindResult {
  emails: Email[];
  phones: Phone[];
}

/** A source of contact data: the sandbox, the operator's directory, a derived technique, a vendor. */
export interface ContactProvider {
  readonly name: string;
  find(request: FindRequest): Promise<FindResult>;
}

/** Worth retrying later: rate limited, a 5xx, a timeout, a network error. */
export class TransientProviderError extends Error {
  override readonly name = "TransientProviderError";
  constructor(
    message: string,
    /** The upstream's Retry-After, when it sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Retrying will not help: bad credentials, a request the upstream refuses, an answer we cannot read. */
export class PermanentProviderError extends Error {
  override readonly name = "PermanentProviderError";
}

export const notFound = (): FindResult => ({ emails: [], phones: [] });
