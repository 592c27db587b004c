import { accountStub } from "../account/stub";
import type { Tenant } from "../base/tenant";
import { callGate } from "../enrichment/call-gate";
import { readVendorConfig } from "../enrichment/vendor-config";
import { crmNotConnected } from "../http/errors";
import { governorStub } from "../vendor-governor/stub";
import type { CrmClient, CrmConnection } from "./crm";
import { readCrmConfig } from "./crm-config";
import { CRMS, type CrmProvider, isCrmProvider } from "./crms";
import { openToken, sealToken } from "./token-box";

/** A connection to a CRM declared in crms.ts. */
type KnownConnection = CrmConnection & { provider: CrmProvider };

/** The client of a connection, its calls through the token's budget at the vendor governor (when governed). */
export function crmClient(env: Env, connection: KnownConnection, signal?: AbortSignal): CrmClient {
  const crm = CRMS[connection.provider];
  const config = readCrmConfig(env);
  const governed = readVendorConfig(env).vendorLimits !== null;
  const limits = config.limits.get(crm.name) ?? crm.limits;
  return crm.create(connection, {
    provider: crm.name,
    fetch: (input, init) => fetch(input, init),
    timeoutMs: config.timeoutMs,
    ...(crm.waitHeader ? { waitHeader: crm.waitHeader } : {}),
    ...(signal ? { signal } : {}),
    ...(governed
      ? { gate: callGate(crm.name, limits, async () => governorStub(env, crm.name, connection.token)) }
      : {}),
  });
}

export interface ConnectionInfo {
  provider: CrmProvider;
  accountId: string;
  connectedAt: string;
}

/** Checks the token with the CRM (a refused one throws crm-http's CrmUnauthorizedError), then saves it sealed. */
export async function saveConnection(env: Env, tenant: Tenant, connection: KnownConnection): Promise<ConnectionInfo> {
  const accountId = await crmClient(env, connection).accountId();
  const connectedAt = new Date().toISOString();
  await accountStub(env, tenant).crmSaveConnection({
    provider: connection.provider,
    accountId,
    baseUrl: connection.baseUrl,
    sealedToken: await sealToken(env, tenant, connection.provider, connection.token),
    connectedAt,
  });
  return { provider: connection.provider, accountId, connectedAt };
}

/** A saved connection: its token opened, and the CRM account (portal, org) the token belonged to when saved. */
export type OpenConnection = KnownConnection & { accountId: string };

/** The tenant's connection to `provider`, its token opened, or null when none is saved. */
export async function openConnection(env: Env, tenant: Tenant, provider: CrmProvider): Promise<OpenConnection | null> {
  const stored = await accountStub(env, tenant).crmConnection(provider);
  if (!stored) return null;
  const token = await openToken(env, tenant, provider, stored.sealedToken);
  return { provider, baseUrl: stored.baseUrl, token, accountId: stored.accountId };
}

/** The tenant's connection to `provider`, its token opened; crm_not_connected when none is saved. */
export async function connectionOf(env: Env, tenant: Tenant, provider: CrmProvider): Promise<OpenConnection> {
  const connection = await openConnection(env, tenant, provider);
  if (!connection) throw crmNotConnected(provider);
  return connection;
}

export async function listConnections(env: Env, tenant: Tenant): Promise<ConnectionInfo[]> {
  return (await accountStub(env, tenant).crmConnections()).flatMap(({ provider, accountId, connectedAt }) =>
    isCrmProvider(provider) ? [{ provider, accountId, connectedAt }] : [],
  );
}
