// An error as one sentence for the page's status lines: the user's file problem as said,
// the API's problem with its code (a CRM's in words, with what to do), anything else as it is.
import type { Provider } from "./crm-api";
import { FileProblem } from "./file-adapter";
import { PROVIDER_LABELS } from "./words";

export function explain(error: unknown): string {
  if (error instanceof FileProblem) return error.message;
  const problem = (error as { problem?: { status: number; code: string; detail: string } }).problem;
  if (problem?.status === 401) return "The API key was refused: paste a valid key above.";
  if (problem) return `The API answered ${problem.status} ${problem.code}: ${problem.detail}`;
  return `Something went wrong: ${String(error)}`;
}

/** The API's CRM problems in words, with what to do; any other problem as the page says it. */
export function explainCrm(error: unknown, provider?: Provider): string {
  const problem = (error as { problem?: { status: number; code: string; detail: string } }).problem;
  const crm = provider ? PROVIDER_LABELS[provider] : "The CRM";
  const said: Record<string, string> = {
    crm_token_refused:
      provider === "salesforce"
        ? `${crm} refused this token: give a current access token of a user who can read and edit Contacts, then connect.`
        : `${crm} refused this token: copy the private app's access token again (with the contacts and lists scopes), then connect.`,
    crm_unauthorized: `${crm} refused the saved token (expired or revoked?): connect it again above with a new token.`,
    crm_not_connected: `${crm} is not connected: connect it above first.`,
    crm_list_not_found: `${crm} has no such list: check its ID (for HubSpot, the number in the list's address).`,
    crm_unavailable: `${crm} did not answer, or asked us to wait: try again in a minute.`,
    crm_bad_answer: `${crm} answered something its API does not (its fault, not yours): try again in a minute.`,
    crm_account_changed: `${crm} is now connected to another account than this preview's: preview again on this one, or connect the first account again.`,
    too_many_items: "This list has more members than one batch holds: split it in the CRM, then enrich each part.",
  };
  if (problem?.code === "invalid_request" && problem.detail.startsWith("instanceUrl"))
    return `The instance URL ${problem.detail.slice("instanceUrl ".length)} Give the address you sign in to ${crm} at.`;
  const words = problem ? said[problem.code] : undefined;
  return words ? `${words} (${problem?.detail})` : explain(error);
}
