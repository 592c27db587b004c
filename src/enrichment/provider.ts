import type { ContactField, Email, Phone } from "../contact-info/contact";
import type { NormalizedPerson } from "../contact-info/person";

export interface FindRequest {
  person: NormalizedPerson;
  /** The person's canonical key (personKey), made once at submission and carried with the item. */
  personKey: string;
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
  /** false for a source named in the configuration but lacking what it needs (a vendor without its secret): never asked. */
  readonly configured?: false;
  find(request: FindRequest): Promise<FindResult>;
}

/**
 * The source could not answer, and may later: rate limited, a 5xx, a timeout, a
 * network error. Any other error a provider throws is a fault in our processing,
 * not the source's: it fails the attempt, and the queue retries the item.
 */
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

/** The source could not answer, and retrying will not help: bad credentials, a request it refuses, an answer we cannot read. */
export class PermanentProviderError extends Error {
  override readonly name = "PermanentProviderError";
}

export const notFound = (): FindResult => ({ emails: [], phones: [] });

/** A configured source that cannot be used: reported as skipped, so callers see it was left out. */
export const unconfiguredProvider = (name: string): ContactProvider => ({
  name,
  configured: false,
  find: () => Promise.reject(new PermanentProviderError(`${name}: not configured`)),
});
