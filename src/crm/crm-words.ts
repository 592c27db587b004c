// A CRM's words, apart from its declaration's other types (crm.ts) so that the console page's types can
// read them (console/crms.ts) without following the declarations' imports.

/**
 * What people and the API's reference are told of a CRM, each phrase said once, in its declaration: the
 * routes' descriptions, the document and the tools read these, never a CRM's name (.ci/facts-once.sh).
 */
export interface CrmWords {
  /** Its name as people write it ("HubSpot"); the API's `provider` is the declaration's `name`. */
  readonly label: string;
  /** The token a connection saves ("a private app's token"); an instance URL is said from `endpoint`. */
  readonly token: string;
  /** How connecting checks the token ("GET /account-info/v3/details"). */
  readonly tokenCheck: string;
  /** What its account is called, whose id is a connection's accountId ("portal"). */
  readonly account: string;
  /** Its test account, the one a test key connects ("developer test account"). */
  readonly sandbox: string;
  /** The lists …/integrations/{provider}/lists answers, and any it does not. */
  readonly lists: string;
  /** What a submit's source.listId takes ("a list id"). */
  readonly listId: string;
  /** How it tells that a person changed a property last (skip_if_edited_by_user). */
  readonly editedBy: string;
  /** For the console page, when `token` does not say where it is made and what it needs. */
  readonly tokenHelp?: string;
  /** For the console page, when `listId` does not say where a person finds it. */
  readonly listIdHelp?: string;
}

/** What the console page says of a CRM, taken from its declaration when the page is built (page-words.ts). */
export interface CrmPageWords
  extends Pick<CrmWords, "label" | "sandbox">,
    Required<Pick<CrmWords, "tokenHelp" | "listIdHelp">> {
  readonly name: string;
  /** For a CRM that asks for an instance URL, the host those end with ("my.example.com"). */
  readonly instanceHost?: string;
}
