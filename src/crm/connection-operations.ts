// CRM connections, and a CRM list as a submit's items: the operations behind …/integrations/{provider}
// and a submit's `source` (the syncs' are in operations.ts).
import * as z from "zod";
import { accountStub } from "../account/stub";
import { tenantOf } from "../base/tenant";
import {
  badRequest,
  crmBadAnswer,
  crmListNotFound,
  crmRefused,
  crmTokenRefused,
  crmUnauthorized,
  crmUnavailable,
  notFound,
  tooManyItems,
} from "../http/errors";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/paging";
import { parseQuery } from "../http/query";
import type { Caller } from "../operations/caller";
import { operation } from "../rate-limit/operation";
import { connectionOf, crmClient, listConnections, saveConnection } from "./connections";
import { instanceOrigin, readCrmConfig } from "./crm-config";
import {
  CrmBadAnswerError,
  CrmRefusedError,
  CrmUnauthorizedError,
  CrmUnavailableError,
  DEFAULT_RETRY_SECONDS,
} from "./crm-http";
import { CRM_PROVIDERS, CRMS, type CrmProvider, isCrmProvider } from "./crms";
import { connectRequestSchema, crmSourceSchema, invalid, listsQuerySchema } from "./schemas";

/** Lists per page of …/integrations/{provider}/lists (HubSpot's search answers up to its `count`). */
const CRM_LISTS_PAGE = 100;
// A submit from a CRM list answers within 30 s whatever the CRM does: its reads stop here (each call has
// its own timeout too), leaving the rest of the 30 s for the batch's creation.
const SOURCE_READ_DEADLINE_MS = 25_000;

const noSuchProvider = () => notFound(`No such CRM: use ${CRM_PROVIDERS.join(" or ")}.`);

// The CRMs a customer connects with their own instance URL (Salesforce), from the declarations.
const withInstanceUrl = () =>
  Object.values(CRMS)
    .filter(({ endpoint }) => "hostPatternVariable" in endpoint)
    .map(({ name }) => name)
    .join(" or ");

/**
 * A CRM error as the API answers it, for a call made on a request (connecting, reading a list): the CRM's
 * fault a 502 or 503 with its wait; its scopes named only when the CRM said a scope is missing.
 */
function answerOf(provider: CrmProvider, error: unknown, connecting: boolean): unknown {
  if (error instanceof CrmUnauthorizedError) return connecting ? crmTokenRefused(provider) : crmUnauthorized(provider);
  if (error instanceof CrmBadAnswerError) return crmBadAnswer(provider, error.retryAfterSeconds);
  if (error instanceof CrmUnavailableError) return crmUnavailable(provider, error.retryAfterSeconds);
  if (error instanceof CrmRefusedError)
    return connecting && error.status === 403
      ? crmTokenRefused(provider, error.missingScopes)
      : crmRefused(provider, error.status, error.missingScopes);
  return error;
}

/** Calls made for a request: they stop when it is gone, or at `deadlineMs` (then the CRM was too slow: 503). */
async function whileAsked<T>(
  caller: Caller,
  provider: CrmProvider,
  deadlineMs: number,
  read: (signal: AbortSignal) => Promise<T>,
) {
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = caller.signal ? AbortSignal.any([deadline, caller.signal]) : deadline;
  try {
    return await read(signal);
  } catch (error) {
    if (signal.aborted) throw crmUnavailable(provider, DEFAULT_RETRY_SECONDS);
    throw answerOf(provider, error, false);
  }
}

/** Checks the token with the CRM and saves it sealed; a refused token saves nothing. */
export const connectCrm = operation(
  "contact_info_request",
  async function connectCrm({ env, apiKey }: Caller, provider: string, body: unknown) {
    if (!isCrmProvider(provider)) throw noSuchProvider();
    const parsed = connectRequestSchema().safeParse(body);
    if (!parsed.success)
      invalid(`The body must be {token} (and instanceUrl for ${withInstanceUrl()}).`, parsed.error.issues);
    const endpoint = readCrmConfig(env).endpoints[provider];
    const { token, instanceUrl } = parsed.data;
    const pattern = "hostPattern" in endpoint ? endpoint.hostPattern : null;
    const baseUrl =
      pattern === null ? ("url" in endpoint ? endpoint.url : null) : instanceOrigin(pattern, instanceUrl ?? "");
    if (baseUrl === null) {
      const message = `must be https://<your domain> on a host matching ${pattern}, with no credentials, path, query or fragment`;
      throw badRequest("invalid_request", `instanceUrl ${message}.`, [{ path: "instanceUrl", message }]);
    }
    try {
      return await saveConnection(env, tenantOf(apiKey), { provider, token, baseUrl });
    } catch (error) {
      throw answerOf(provider, error, true);
    }
  },
);

export const listCrmConnections = operation(
  "contact_info_status",
  async function listCrmConnections({ env, apiKey }: Caller) {
    return { integrations: await listConnections(env, tenantOf(apiKey)) };
  },
);

export const readCrmConnection = operation(
  "contact_info_status",
  async function readCrmConnection({ env, apiKey }: Caller, provider: string) {
    const connection = isCrmProvider(provider)
      ? (await listConnections(env, tenantOf(apiKey))).find((entry) => entry.provider === provider)
      : undefined;
    if (!connection)
      throw notFound(`No ${isCrmProvider(provider) ? provider : "such"} connection in this environment.`);
    return connection;
  },
);

export const disconnectCrm = operation(
  "contact_info_request",
  async function disconnectCrm({ env, apiKey }: Caller, provider: string): Promise<void> {
    if (!isCrmProvider(provider) || !(await accountStub(env, tenantOf(apiKey)).crmRemoveConnection(provider)))
      throw notFound(`No ${isCrmProvider(provider) ? provider : "such"} connection in this environment.`);
  },
);

/** One page of the contact lists the connection may read, to pick the one a submit's `source` names. */
export const listCrmLists = operation(
  "contact_info_status",
  async function listCrmLists(caller: Caller, provider: string, query: Record<string, string>) {
    if (!isCrmProvider(provider)) throw noSuchProvider();
    const { cursor } = parseQuery(listsQuerySchema(), query);
    const theirs = cursor === undefined ? undefined : decodeCursor(cursor, 2048);
    if (theirs === null) throw invalidCursor();
    const connection = await connectionOf(caller.env, tenantOf(caller.apiKey), provider);
    const page = await whileAsked(caller, provider, SOURCE_READ_DEADLINE_MS, (signal) =>
      crmClient(caller.env, connection, signal).lists(theirs, CRM_LISTS_PAGE),
    );
    if (page === null) throw invalidCursor();
    return { lists: page.lists, ...(page.next === undefined ? {} : { nextCursor: encodeCursor(page.next) }) };
  },
);

/**
 * A submit body with `source` (a CRM list) in place of `items`: the list's members, read through the
 * connection, as items (externalId: the record id). Any other body is returned as it is.
 */
export async function itemsFromSource(caller: Caller, body: unknown, maxItems: number): Promise<unknown> {
  const object = z.record(z.string(), z.unknown()).safeParse(body);
  if (!object.success || !("source" in object.data)) return body;
  const { source, ...rest } = object.data;
  if ("items" in rest)
    throw badRequest("invalid_request", "Send items or source, not both.", [
      { path: "source", message: "not with items" },
    ]);
  const parsed = crmSourceSchema().safeParse(source);
  if (!parsed.success) invalid("source must be {provider, listId}.", parsed.error.issues, "source.");
  const { provider } = parsed.data;
  const connection = await connectionOf(caller.env, tenantOf(caller.apiKey), provider);
  const members = await whileAsked(caller, provider, SOURCE_READ_DEADLINE_MS, (signal) =>
    crmClient(caller.env, connection, signal).listMembers(parsed.data.listId, maxItems),
  );
  if (members === null) throw crmListNotFound(provider, parsed.data.listId);
  if (members.length > maxItems) throw tooManyItems(maxItems, members.length);
  if (members.length === 0)
    throw badRequest("invalid_request", "The list has no members.", [
      { path: "source.listId", message: "an empty list" },
    ]);
  return { ...rest, items: members.map(({ id, fields }) => ({ ...fields, externalId: id })) };
}
