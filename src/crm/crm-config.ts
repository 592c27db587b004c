import * as z from "zod";
import { configOf, url } from "../base/config";
import { once } from "../base/once";
import { type RateWindow, rateLimitOverrides } from "../base/vendor-limits";
import type { CrmProvider } from "./crms";
import { CRMS } from "./crms";

// The CRMs' configuration, read from their declarations (crm.ts) as the vendors' is: where a CRM
// with one URL answers (its URL variable), and which instance URLs a customer may connect to a CRM
// with one per org (its host pattern variable; `*.` allows any subdomain), and the governor's windows.

/** Where a connection answers: the CRM's URL, or null when the customer gives an instance URL. */
type CrmEndpoint = { url: string } | { hostPattern: string };

interface CrmConfig {
  endpoints: Readonly<Record<CrmProvider, CrmEndpoint>>;
  /** Each CRM's windows at the vendor governor, per token. */
  limits: ReadonlyMap<string, readonly RateWindow[]>;
  timeoutMs: number;
}

// Made on first use (src/base/once.ts): a sync or a connection needs it, a cold start does not.
const crmConfigSchema = once(() => {
  const hostPattern = z
    .string()
    .regex(/^(\*\.)?[a-z0-9.-]+$/i, { error: "must be a host name, optionally starting *." })
    .transform((pattern) => pattern.toLowerCase());
  // Each CRM's variable, read as the endpoint it names.
  const endpointVars = Object.fromEntries(
    Object.values(CRMS).map(({ endpoint }) =>
      "urlVariable" in endpoint
        ? [endpoint.urlVariable, url.default(endpoint.defaultUrl).transform((url): CrmEndpoint => ({ url }))]
        : [
            endpoint.hostPatternVariable,
            hostPattern.default(endpoint.defaultHostPattern).transform((hostPattern): CrmEndpoint => ({ hostPattern })),
          ],
    ),
  );
  return z
    .object({
      ...endpointVars,
      // CRM_RATE_LIMITS: `crm=LIMIT/SECONDS[+…]` replacing a CRM's declared limits (HubSpot's 190 per 10 s on
      // Professional and Enterprise: `hubspot=190/10`); absent or empty keeps them.
      CRM_RATE_LIMITS: z.preprocess(
        (value) => value ?? "",
        rateLimitOverrides(new Map(Object.values(CRMS).map((crm) => [crm.name, crm.limits])), "crm"),
      ),
      // CRM_TIMEOUT_MS: each CRM call's whole time, its body's last byte included (wrangler.toml says why 10 s).
      CRM_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
    })
    .transform(
      (vars): CrmConfig => ({
        endpoints: Object.fromEntries(
          Object.values(CRMS).map(({ name, endpoint }) => [
            name,
            "urlVariable" in endpoint
              ? (endpointIn(vars, endpoint.urlVariable) ?? { url: endpoint.defaultUrl })
              : (endpointIn(vars, endpoint.hostPatternVariable) ?? { hostPattern: endpoint.defaultHostPattern }),
          ]),
        ) as Record<CrmProvider, CrmEndpoint>,
        limits: vars.CRM_RATE_LIMITS,
        timeoutMs: vars.CRM_TIMEOUT_MS,
      }),
    );
});

export const readCrmConfig = configOf(crmConfigSchema);

// The endpoint a CRM's variable was read as (its schema above made one, the default included).
const endpointIn = (vars: Record<string, unknown>, variable: string): CrmEndpoint | undefined => {
  const value = vars[variable];
  if (typeof value !== "object" || value === null) return undefined;
  if ("url" in value && typeof value.url === "string") return { url: value.url };
  if ("hostPattern" in value && typeof value.hostPattern === "string") return { hostPattern: value.hostPattern };
  return undefined;
};

/**
 * The origin `instanceUrl` names, when it is https on a host `pattern` allows and nothing else: no
 * credentials, port, query (not even an empty `?`), fragment, or path other than `/`; else null.
 */
export function instanceOrigin(pattern: string, instanceUrl: string): string | null {
  if (!URL.canParse(instanceUrl) || /[?#]/.test(instanceUrl)) return null;
  const { protocol, hostname, pathname, username, password, port, origin } = new URL(instanceUrl);
  if (protocol !== "https:" || username || password || port || pathname !== "/") return null;
  const allowed = pattern.startsWith("*.")
    ? hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1
    : hostname === pattern;
  return allowed ? origin : null;
}
