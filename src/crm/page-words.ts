import type { CrmPageWords } from "./crm-words";
import { CRMS } from "./crms";

/**
 * The CRMs the console page offers, with its words for each, from their declarations: scripts/build-console.mjs
 * gives them to the page as CRM_PAGE_WORDS (the page cannot import the declarations: their clients and zod
 * would weigh on it), and the tests' setup gives the console's modules the same.
 */
export const crmPageWords = (): CrmPageWords[] =>
  Object.values(CRMS).map(({ name, words, endpoint }) => ({
    name,
    label: words.label,
    sandbox: words.sandbox,
    tokenHelp: words.tokenHelp ?? words.token,
    listIdHelp: words.listIdHelp ?? words.listId,
    ...("defaultHostPattern" in endpoint ? { instanceHost: endpoint.defaultHostPattern.replace(/^\*\./, "") } : {}),
  }));
