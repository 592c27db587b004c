// "Connect a CRM": its token, and its instance URL for a CRM whose declaration asks one (crms.ts),
// checked by the API with the CRM before it is kept (encrypted; never shown again); the
// CRMs connected to this key's environment, each with Disconnect.
import type { Api } from "./api";
import type { CrmApi, Integration } from "./crm-api";
import { CRM_PAGES, crmLabel, FIRST_PROVIDER, instanceHost, PROVIDERS, type Provider, perCrm } from "./crms";
import { byId, fillTable, h } from "./dom";
import { explainCrm } from "./explain";

const say = (text: string) => {
  byId("crm-connect-status").textContent = text;
};

const asProvider = (value: string): Provider => PROVIDERS.find((provider) => provider === value) ?? FIRST_PROVIDER;

/** The sandbox advice for a test key; a live key writes to whatever CRM is connected. */
export function showEnvironment(api: Api | undefined): void {
  const sandboxes = CRM_PAGES.map(({ label, sandbox }) => `a ${label} ${sandbox}`).join(", ");
  const sandbox = `connect a CRM sandbox (${sandboxes}), never your real CRM`;
  byId("crm-sandbox").textContent = !api
    ? `Paste your API key at the top of the page first. With a test key, ${sandbox}.`
    : api.environment === "live"
      ? "You are using a live key: syncs write into the CRM you connect here, after you preview and apply them."
      : `You are using a test key, whose results are sandbox data: ${sandbox}.`;
}

export function showConnections(list: readonly Integration[], crm: CrmApi, refresh: () => Promise<void>): void {
  const disconnect = (integration: Integration) => {
    const name = crmLabel(integration.provider);
    const button = h("button", { type: "button", class: "small" }, `Disconnect ${name}`);
    button.addEventListener("click", async () => {
      say(`Disconnecting ${name}…`);
      try {
        await crm.disconnect(integration.provider);
        say(`${name} disconnected: its token is deleted here. Connect it again with a token to sync.`);
        await refresh();
      } catch (error) {
        say(explainCrm(error, integration.provider));
      }
    });
    return button;
  };
  fillTable(
    byId<HTMLTableElement>("crm-connections"),
    ["CRM", "Account", "Connected", ""],
    list.map((integration) => [
      crmLabel(integration.provider),
      integration.accountId,
      new Date(integration.connectedAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" }),
      disconnect(integration),
    ]),
    list.length === 0 ? "No CRM connected yet." : undefined,
  );
  // The list and write-back forms offer only the CRMs connected.
  for (const id of ["crm-list-provider", "crm-sync-provider"]) {
    const select = byId<HTMLSelectElement>(id);
    const kept = select.value;
    select.replaceChildren(
      ...list.map((integration) => new Option(crmLabel(integration.provider), integration.provider)),
    );
    if (list.some((integration) => integration.provider === kept)) select.value = kept;
  }
}

/** No connections shown (no key, or another key's were). */
export function clearConnections(): void {
  byId("crm-connections").replaceChildren();
  byId("crm-connect-status").textContent = "";
  for (const id of ["crm-list-provider", "crm-sync-provider"]) byId(id).replaceChildren();
}

export function wireConnect(crm: () => CrmApi | undefined, refresh: () => Promise<void>): void {
  const provider = byId<HTMLSelectElement>("crm-provider");
  const instance = byId<HTMLInputElement>("crm-instance");
  const token = byId<HTMLInputElement>("crm-token");
  provider.replaceChildren(...PROVIDERS.map((name) => new Option(crmLabel(name), name)));
  byId("crm-token-help-crms").textContent = perCrm(({ tokenHelp, instanceHost }) =>
    instanceHost ? `${tokenHelp} and your instance's address (…${instanceHost})` : tokenHelp,
  );
  const showInstance = () => {
    const host = instanceHost(asProvider(provider.value));
    byId("crm-instance-choice").hidden = !host;
    instance.required = Boolean(host);
    instance.placeholder = host ? `https://yourcompany.${host}` : "";
  };
  provider.addEventListener("change", showInstance);
  showInstance();
  byId<HTMLFormElement>("crm-connect-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const api = crm();
    if (!api) return say("Paste your API key at the top of the page first.");
    const chosen = asProvider(provider.value);
    const name = crmLabel(chosen);
    say(`Checking the token with ${name}…`);
    try {
      const instanceUrl = instanceHost(chosen) ? instance.value.trim() : undefined;
      const connected = await api.connect(chosen, token.value.trim(), instanceUrl);
      token.value = "";
      say(`${name} connected (account ${connected.accountId}). The token is kept encrypted and never shown again.`);
      await refresh();
    } catch (error) {
      say(`${name} is not connected: ${explainCrm(error, chosen)}`);
    }
  });
}
