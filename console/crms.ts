// The CRMs the page offers and its words for each, read from their declarations (src/crm/) when the page is
// built: scripts/build-console.mjs defines CRM_PAGE_WORDS (src/crm/page-words.ts), so adding a CRM is its
// file and its line in src/crm/crms.ts, here too. The tests' setup gives the same value.
import type { CrmConnection } from "../client/src/index";
import type { CrmPageWords } from "../src/crm/crm-words";

export type Provider = CrmConnection["provider"];
type CrmPage = CrmPageWords & { readonly name: Provider };

declare const CRM_PAGE_WORDS: readonly [CrmPage, ...CrmPage[]];

export const CRM_PAGES = CRM_PAGE_WORDS;
export const PROVIDERS = CRM_PAGES.map(({ name }) => name);
/** The first CRM declared: the one a form shows first. */
export const FIRST_PROVIDER = CRM_PAGES[0].name;

const pageOf = (provider: Provider): CrmPage | undefined => CRM_PAGES.find(({ name }) => name === provider);
export const crmLabel = (provider: Provider): string => pageOf(provider)?.label ?? provider;
/** The host a CRM's instance URLs end with, for one that asks for an instance URL. */
export const instanceHost = (provider: Provider): string | undefined => pageOf(provider)?.instanceHost;
export const tokenHelp = (provider: Provider): string | undefined => pageOf(provider)?.tokenHelp;
export const listIdHelp = (provider: Provider): string | undefined => pageOf(provider)?.listIdHelp;

/** One sentence per CRM ("HubSpot: …. Salesforce: …."), in the declarations' order. */
export const perCrm = (say: (crm: CrmPage) => string): string =>
  CRM_PAGES.map((crm) => `${crm.label}: ${say(crm)}.`).join(" ");
