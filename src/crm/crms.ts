import type { CrmDeclaration } from "./crm";
import { hubspot } from "./hubspot";
import { salesforce } from "./salesforce";

/** Declarations keyed by their own names. */
type ByName<T> = { readonly [Name in keyof T & string]: CrmDeclaration<Name> };
const byName = <T extends ByName<T>>(declarations: T): T => declarations;

// Every CRM a customer may connect, each declared in its own file (crm.ts): adding one is its file and
// its line here. The provider list, the sync's and the routes' enums and the messages derive from it.
export const CRMS = byName({ hubspot, salesforce });

export type CrmProvider = keyof typeof CRMS;
export const CRM_PROVIDERS = Object.values(CRMS).map(({ name }) => name) as [CrmProvider, ...CrmProvider[]];
export const isCrmProvider = (name: string): name is CrmProvider => Object.hasOwn(CRMS, name);

/** One phrase per CRM, in the list's order: how the docs say a fact of each without naming one. */
export const perCrm = (say: (crm: CrmDeclaration) => string, separator = "; "): string =>
  Object.values(CRMS).map(say).join(separator);

/** The CRMs' labels as a sentence lists them: "A", "A or B", "A, B or C". */
export const crmLabels = (): string => {
  const labels = Object.values(CRMS).map(({ words }) => words.label);
  return labels.length < 2 ? labels.join("") : `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}`;
};
