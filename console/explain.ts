// An error as one sentence for the page's status lines: the user's file problem as said,
// the API's problem with its code (a CRM's and a rate limit's in words, with what to do and the
// time to wait, said once), anything else as it is.
import { crmLabel, listIdHelp, type Provider, tokenHelp } from "./crms";
import { FileProblem } from "./file-adapter";
import { duration, LIMIT_NAMES, perWindow } from "./words";

interface ProblemLike {
  status: number;
  code: string;
  detail: string;
  retryAfterSeconds?: unknown;
  endpointType?: unknown;
  limit?: unknown;
  windowSeconds?: unknown;
}

const problemOf = (error: unknown): ProblemLike | undefined => {
  const problem = (error as { problem?: unknown } | null)?.problem;
  if (typeof problem !== "object" || problem === null) return undefined;
  const { status, code, detail } = problem as Record<string, unknown>;
  return typeof status === "number" && typeof code === "string" && typeof detail === "string"
    ? (problem as ProblemLike)
    : undefined;
};

/** " Try again in 10 s.", from the problem's retryAfterSeconds; `otherwise` when it has none. */
const retryIn = (problem: ProblemLike | undefined, otherwise = ""): string =>
  typeof problem?.retryAfterSeconds === "number" && problem.retryAfterSeconds > 0
    ? ` Try again in ${duration(Math.ceil(problem.retryAfterSeconds))}.`
    : otherwise;

export function explain(error: unknown): string {
  if (error instanceof FileProblem) return error.message;
  const problem = problemOf(error);
  if (problem?.status === 401) return "The API key was refused: paste a valid key above.";
  if (problem?.code === "rate_limited") {
    const name = typeof problem.endpointType === "string" ? LIMIT_NAMES[problem.endpointType] : undefined;
    const limit =
      name && typeof problem.limit === "number" && typeof problem.windowSeconds === "number"
        ? ` (${name}: ${perWindow(problem.limit, problem.windowSeconds)})`
        : "";
    return `Too many requests for your limit${limit}.${retryIn(problem)}`;
  }
  if (problem) return `The API answered ${problem.status} ${problem.code}: ${problem.detail}`;
  return `Something went wrong: ${String(error)}`;
}

/** The API's CRM problems in words, with what to do, each said once; any other problem as the page says it. */
export function explainCrm(error: unknown, provider?: Provider): string {
  const problem = problemOf(error);
  const crm = provider ? crmLabel(provider) : "The CRM";
  const where = provider && listIdHelp(provider);
  const said: Record<string, string> = {
    crm_token_refused: `${crm} refused this token: give ${(provider && tokenHelp(provider)) ?? "a current one"}, then connect.`,
    crm_unauthorized: `${crm} refused the saved token (expired or revoked?): connect it again above with a new token.`,
    crm_not_connected: `${crm} is not connected: connect it above first.`,
    crm_list_not_found: `${crm} has no such list: check its ID${where ? `, ${where}` : ""}.`,
    crm_unavailable: `${crm} did not answer, or asked us to wait.${retryIn(problem, " Try again in a minute.")}`,
    crm_bad_answer: `${crm} answered something its API does not (its fault, not yours).${retryIn(problem, " Try again in a minute.")}`,
    crm_account_changed: `${crm} is now connected to another account than this preview's: preview again on this one, or connect the first account again.`,
    too_many_items: "This list has more members than one batch holds: split it in the CRM, then enrich each part.",
  };
  if (problem?.code === "invalid_request" && problem.detail.startsWith("instanceUrl"))
    return `The instance URL ${problem.detail.slice("instanceUrl ".length)} Give the address you sign in to ${crm} at.`;
  return (problem && said[problem.code]) ?? explain(error);
}
