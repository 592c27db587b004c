// The Webhooks tab (issue 49): the key's environment's endpoints (add, enable/disable, send a test,
// rotate the secret, delete) and its recent deliveries with Redeliver. A secret is shown once, where it
// was made, and never kept by the page.
import type { Api } from "./api";
import { byId, fillTable, h } from "./dom";
import { explain } from "./explain";
import {
  attemptsLine,
  DELIVERY_STATUS_WORDS,
  type Delivery,
  type Endpoint,
  EVENT_WORDS,
  endpointState,
} from "./webhook-words";

type EventName = Endpoint["events"][number];

const EVENTS = Object.keys(EVENT_WORDS).filter((name): name is EventName => name in EVENT_WORDS);
const RECENT = 20;

let api: Api | undefined;
let loaded = false;

const say = (text: string) => {
  byId("hooks-status").textContent = text;
};

const when = (iso: string) => new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The answer's list under `key`, each entry kept only when it has an id (the rest of its shape is the OpenAPI document's). */
function listOf<T extends { id: string }>(answer: unknown, key: string): T[] {
  const list = isRecord(answer) ? answer[key] : undefined;
  return Array.isArray(list) ? list.filter((entry): entry is T => isRecord(entry) && typeof entry.id === "string") : [];
}

/** The secret an answer carries, shown once with how to keep it; the page keeps no copy. */
function showSecret(answer: unknown, what: string): void {
  const secret = isRecord(answer) && typeof answer.secret === "string" ? answer.secret : "";
  const box = byId("hooks-secret");
  box.hidden = secret === "";
  box.replaceChildren(
    h("p", {}, `${what} Its signing secret, shown only now:`),
    h("p", {}, h("code", { id: "hooks-secret-value" }, secret)),
    h(
      "p",
      { class: "help" },
      "Select it and copy it (Ctrl+C or ⌘C) into your receiver's settings now: it is never shown again.",
    ),
  );
}

function button(label: string, act: () => Promise<string | undefined>): HTMLButtonElement {
  const element = h("button", { type: "button", class: "small" }, label);
  element.addEventListener("click", async () => {
    element.disabled = true;
    try {
      const said = await act();
      if (said !== undefined) say(said);
      await refresh();
    } catch (error) {
      say(explain(error));
    } finally {
      element.disabled = false;
    }
  });
  return element;
}

function endpointActions(doors: Api, endpoint: Endpoint): HTMLElement {
  const path = `/webhook-endpoints/${encodeURIComponent(endpoint.id)}`;
  const enabled = endpoint.status === "enabled";
  return h(
    "span",
    { class: "actions" },
    button(enabled ? "Disable" : "Enable", async () => {
      await doors.send("PATCH", path, { status: enabled ? "disabled" : "enabled" });
      return enabled
        ? `${endpoint.url} disabled: nothing is sent to it until you enable it.`
        : `${endpoint.url} enabled.`;
    }),
    button("Send test", async () => {
      await doors.send("POST", `${path}/test`);
      return `A test event is on its way to ${endpoint.url}: see it under Recent deliveries.`;
    }),
    button("Rotate secret", async () => {
      if (!confirm(`Make a new signing secret for ${endpoint.url}? The old one still signs beside it for 24 hours.`))
        return undefined;
      showSecret(await doors.send("POST", `${path}/rotate-secret`), `New secret for ${endpoint.url}.`);
      return "Secret rotated: the old one still signs beside the new one for 24 hours.";
    }),
    button("Delete", async () => {
      if (!confirm(`Delete the endpoint ${endpoint.url} and its deliveries? Nothing more is sent to it.`))
        return undefined;
      await doors.send("DELETE", path);
      return `${endpoint.url} deleted.`;
    }),
  );
}

function showEndpoints(doors: Api, endpoints: readonly Endpoint[]): void {
  fillTable(
    byId<HTMLTableElement>("hooks-endpoints"),
    ["URL", "Events", "Status", "Description", ""],
    endpoints.map((endpoint) => [
      endpoint.url,
      endpoint.events.map((event) => EVENT_WORDS[event] ?? event).join(", "),
      endpointState(endpoint),
      endpoint.description ?? "",
      endpointActions(doors, endpoint),
    ]),
    endpoints.length === 0 ? "No endpoint yet: add one above." : undefined,
  );
}

function showDeliveries(doors: Api, deliveries: readonly Delivery[], urls: ReadonlyMap<string, string>): void {
  fillTable(
    byId<HTMLTableElement>("hooks-deliveries"),
    ["Event", "Endpoint", "Status", "Attempts", "Created", ""],
    deliveries.map((delivery) => [
      EVENT_WORDS[delivery.type] ?? delivery.type,
      (delivery.endpointId && urls.get(delivery.endpointId)) || "A batch's own webhookUrl",
      DELIVERY_STATUS_WORDS[delivery.status] ?? delivery.status,
      attemptsLine(delivery.attempts ?? []),
      when(delivery.createdAt),
      button("Redeliver", async () => {
        await doors.send("POST", `/webhook-deliveries/${encodeURIComponent(delivery.id)}/redeliver`);
        return "Sent again: its new attempt shows here once made.";
      }),
    ]),
    deliveries.length === 0 ? "No delivery yet." : undefined,
  );
}

async function refresh(): Promise<void> {
  const doors = api;
  if (!doors) return;
  try {
    const [endpoints, deliveries] = await Promise.all([
      doors.send("GET", "/webhook-endpoints").then((answer) => listOf<Endpoint>(answer, "endpoints")),
      doors.send("GET", `/webhook-deliveries?limit=${RECENT}`).then((answer) => listOf<Delivery>(answer, "deliveries")),
    ]);
    if (doors !== api) return;
    showEndpoints(doors, endpoints);
    showDeliveries(doors, deliveries, new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url])));
  } catch (error) {
    if (doors === api) say(explain(error));
  }
}

async function add(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const doors = api;
  if (!doors) return say("Paste your API key at the top of the page first.");
  const url = byId<HTMLInputElement>("hooks-url").value.trim();
  const description = byId<HTMLInputElement>("hooks-description").value.trim();
  const events = EVENTS.filter((name) => byId<HTMLInputElement>(`hooks-event-${name}`).checked);
  if (events.length === 0) return say("Tick at least one event to send.");
  say(`Adding ${url}…`);
  try {
    const created = await doors.send("POST", "/webhook-endpoints", {
      url,
      events,
      ...(description === "" ? {} : { description }),
    });
    showSecret(created, `Endpoint ${url} added.`);
    byId<HTMLFormElement>("hooks-form").reset();
    say(`${url} added: it is sent the events ticked, signed with the secret above.`);
    await refresh();
  } catch (error) {
    say(explain(error));
  }
}

/** The key in use (undefined: forgotten): what another key's tab showed is cleared, never shown to this one. */
export function useHooksApi(next: Api | undefined): void {
  api = next;
  loaded = false;
  byId("hooks-secret").replaceChildren();
  byId("hooks-secret").hidden = true;
  byId<HTMLTableElement>("hooks-endpoints").replaceChildren();
  byId<HTMLTableElement>("hooks-deliveries").replaceChildren();
  say(next ? `Endpoints of the ${next.environment} environment.` : "Paste your API key at the top of the page first.");
  if (!byId("panel-hooks").hidden) onHooksTab();
}

/** The tab shown: its lists read once per key (Refresh reads them again). */
export function onHooksTab(): void {
  if (!api || loaded) return;
  loaded = true;
  void refresh();
}

export function wireHooks(): void {
  byId("hooks-events").append(
    ...EVENTS.map((name) =>
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          id: `hooks-event-${name}`,
          ...(name === "batch.completed" ? { checked: "" } : {}),
        }),
        ` ${EVENT_WORDS[name]}`,
      ),
    ),
  );
  byId<HTMLFormElement>("hooks-form").addEventListener("submit", (event) => void add(event));
  byId("hooks-refresh").addEventListener("click", () => void refresh());
}
