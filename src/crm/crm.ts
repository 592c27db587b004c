import type { RateWindow } from "../base/vendor-limits";
import type { CrmCall } from "./crm-http";
import type { CrmWords } from "./crm-words";

/** The contact fields a sync may write, each to one CRM property (CrmDeclaration.properties). */
export const SYNC_FIELDS = ["email", "phone"] as const;
export type SyncField = (typeof SYNC_FIELDS)[number];

/** What a connection holds besides its token: HubSpot needs nothing; Salesforce its instance URL. */
export interface CrmConnection {
  /** The CRM's name (crms.ts `CrmProvider`). */
  provider: string;
  token: string;
  /** Where the CRM answers for this customer (Salesforce's instanceUrl; HubSpot's configured URL). */
  baseUrl: string;
}

/** One record of a CRM as a sync reads it: its properties' values, and who changed each last. */
export interface CrmRecord {
  id: string;
  /** Property → current value; an empty string or absent means empty. */
  values: Record<string, string | undefined>;
  /** Property → whether its latest change was made by a person (HubSpot's sourceType, Salesforce's field history). */
  editedByUser: Record<string, boolean>;
}

/** A member of a CRM list, read as a submit item's fields (the record id becomes externalId). */
export interface CrmMember {
  id: string;
  fields: Record<string, string>;
}

interface CrmUpdate {
  id: string;
  /** Property → value; null blanks it (an undo restoring an empty property). */
  values: Record<string, string | null>;
}

/** A list a customer may enrich (a HubSpot contact list, a Salesforce Contact list view); size when the CRM says it. */
interface CrmList {
  id: string;
  name: string;
  size?: number;
}

/** One page of a CRM's lists; `next` is the CRM's own cursor for the page after, absent at the end. */
interface CrmListPage {
  lists: CrmList[];
  next?: string;
}

/** Per record of an update call: null when written, else the CRM's own reason. */
export type UpdateResults = Map<string, { code: string; message: string } | null>;

/** The calls a sync and a list source make of a CRM; each may throw the errors of crm-http.ts. */
export interface CrmClient {
  /** The CRM's account id for this token: it checks the token (a refused one throws CrmUnauthorizedError). */
  accountId(): Promise<string>;
  /** Up to `limit` of the contact lists this token may read, from `cursor` (a `next` it gave); null for a cursor it did not give. */
  lists(cursor: string | undefined, limit: number): Promise<CrmListPage | null>;
  /** Up to `limit` members of a list (HubSpot list, Salesforce list view or report), in the list's order. */
  listMembers(listId: string, limit: number): Promise<CrmMember[] | null>;
  /** The records of `ids` (at most `batchSize`); a record not found is absent. `by` "email" finds them by address. */
  readRecords(keys: readonly string[], by: "id" | "email"): Promise<CrmRecord[]>;
  /** Writes (at most `batchSize` records, each once), answering each record's result. */
  updateRecords(updates: readonly CrmUpdate[]): Promise<UpdateResults>;
}

/**
 * A CRM, declared once in its own file like a vendor (enrichment/vendor.ts): its name, where it
 * answers, its published limits (the vendor governor's budget), its batch size and the properties
 * a sync writes, and its client's factory. Adding a CRM is its file and a line in crms.ts, from which
 * the provider list (`CRM_PROVIDERS`) derives.
 */
export interface CrmDeclaration<Name extends string = string> {
  readonly name: Name;
  readonly words: CrmWords;
  /**
   * Where it answers: one URL for every customer (its variable overrides it: tests' fakes, `wrangler dev
   * --var`), or each customer's own instance URL, given on connecting and held to a host pattern.
   */
  readonly endpoint:
    | { readonly urlVariable: string; readonly defaultUrl: string }
    | { readonly hostPatternVariable: string; readonly defaultHostPattern: string };
  /** Its published limits per token (the governor's windows). */
  readonly limits: readonly RateWindow[];
  /** A header of its 429s giving the window to wait in milliseconds, read when Retry-After is absent. */
  readonly waitHeader?: string;
  /** Records per read or update call. */
  readonly batchSize: number;
  /** The CRM property each sync field is written to. */
  readonly properties: Readonly<Record<SyncField, string>>;
  readonly create: (connection: CrmConnection, call: CrmCall) => CrmClient;
}
