// The list picker of "Enrich a CRM list": the connected CRM's contact lists (…/integrations/{provider}/lists),
// each by name and size; picking one fills the list ID field, which stays for a list not shown (a Salesforce
// report, a list past the pages read).
import type { CrmApi } from "./crm-api";
import { crmLabel, type Provider } from "./crms";
import { byId } from "./dom";
import { explainCrm } from "./explain";
import { count } from "./words";

// Pages read for the picker (100 lists each): past them, the ID field.
const MAX_PAGES = 5;
// The lists shown are the latest asked: an older answer arriving late is dropped.
let asked = 0;

const picker = () => byId<HTMLSelectElement>("crm-list-pick");
const say = (text: string) => {
  byId("crm-list-pick-status").textContent = text;
};

/** No lists shown (no CRM connected, or another key's). */
export function clearPicker(): void {
  asked++;
  picker().replaceChildren(new Option("No CRM connected", ""));
  picker().disabled = true;
  say("");
}

/** The picker's choice follows the ID field: a list shown is selected, another ID selects none. */
export function followTypedId(listId: string): void {
  const shown = [...picker().options].some((option) => option.value === listId && listId !== "");
  picker().value = shown ? listId : "";
}

/** Reads the provider's lists into the picker. */
export async function fillPicker(crm: CrmApi, provider: Provider): Promise<void> {
  const mine = ++asked;
  const name = crmLabel(provider);
  picker().replaceChildren(new Option(`Reading ${name}'s lists…`, ""));
  picker().disabled = true;
  say("");
  const options: HTMLOptionElement[] = [];
  let more = false;
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await crm.lists(provider, cursor);
      if (mine !== asked) return;
      for (const list of answer.lists) {
        const size = list.size === undefined ? "" : ` (${count(list.size, "record")})`;
        options.push(new Option(`${list.name}${size}`, list.id));
      }
      cursor = answer.nextCursor;
      if (cursor === undefined) break;
      more = page === MAX_PAGES - 1;
    }
  } catch (error) {
    if (mine !== asked) return;
    picker().replaceChildren(new Option("Lists could not be read", ""));
    return say(`${explainCrm(error, provider)} Type the list's ID instead.`);
  }
  const first =
    options.length === 0 ? `No contact lists in ${name}` : `Choose one of ${count(options.length, "list")}…`;
  picker().replaceChildren(new Option(first, ""), ...options);
  picker().disabled = options.length === 0;
  followTypedId(byId<HTMLInputElement>("crm-list-id").value.trim());
  if (more) say(`The first ${count(options.length, "list")} are shown: type the ID of another.`);
}
