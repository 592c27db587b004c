import * as z from "zod";
import { parseVars, url } from "../base/config";
import { once } from "../base/once";
import { type RateWindow, rateLimitOverrides } from "../base/vendor-limits";
import type { CrmProvider } from "./crm";
import { CRMS } from "./crms";

// The CRMs' configuration, read from their declarations (crm.ts) as the vendors' is: where a CRM
// with one URL answers (its URL variable), and which instance URLs a customer may connect to a CRM
// with one per org (its host pattern variable; `*.` allows any subdomain), and the governor's windows.

// Made on first use (src/base/once.ts): a sync or a connection needs it, a cold start does not.
const crmVarsSchema = /* @__PURE__ */ once(() => {
  const hostPattern = z
    .string()
    .regex(/^(\*\.)?[a-z0-9.-]+$/i, { error: "must be a host name, optionally starting *." })
    .transform((pattern) => pattern.toLowerCase());
  const variables = Object.values(CRMS).map(({ endpoint }) =>
    "urlVariable" in endpoint
      ? [endpoint.urlVariable, url.default(endpoint.defaultUrl)]
      : [endpoint.hostPatternVariable, hostPattern.default(endpoint.defaultHostPattern)],
  );
  return z.record(z.string(), z.unknown()).pipe(z.object(Object.fromEntries(variables)));
});

// CRM_RATE_LIMITS: `crm=LIMIT/SECONDS[+…]` replacing a CRM's declared limits (HubSpot's 190 per 10 s on
// Professional and Enterprise: `hubspot=190/10`); absent or empty keeps them.
const crmLimitsSchema = /* @__PURE__ */ once(() =>
  z.object({
    CRM_RATE_LIMITS: z.preprocess(
      (value) => value ?? "",
      rateLimitOverrides(new Map(Object.values(CRMS).map((crm) => [crm.name, crm.limits])), "crm"),
    ),
  }),
);

/** Where a connection answers: the CRM's URL, or null when the customer gives an instance URL. */
type CrmEndpoint = { url: string } | { hostPattern: string };

// CRM_TIMEOUT_MS: each CRM call's whole time, its body's last byte included (wrangler.toml says why 10 s).
const crmTimeoutSchema = /* @__PURE__ */ once(() =>
  z.object({ CRM_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000) }),
);

export interface CrmConfig {
  endpoints: Readonly<Record<CrmProvider, CrmEndpoint>>;
  /** Each CRM's windows at the vendor governor, per token. */
  limits: ReadonlyMap<string, readonly RateWindow[]>;
  timeoutMs: number;
}

const parsed = new WeakMap<Env, CrmConfig>();

export function readCrmConfig(env: Env): CrmConfig {
  let config = parsed.get(env);
  if (!config) {
    const vars = parseVars(crmVarsSchema(), env) as Record<string, string>;
    const endpoints = Object.fromEntries(
      Object.values(CRMS).map(({ name, endpoint }) => [
        name,
        "urlVariable" in endpoint
          ? { url: vars[endpoint.urlVariable] ?? endpoint.defaultUrl }
          : { hostPattern: vars[endpoint.hostPatternVariable] ?? endpoint.defaultHostPattern },
      ]),
    ) as Record<CrmProvider, CrmEndpoint>;
    const limits = parseVars(crmLimitsSchema(), env).CRM_RATE_LIMITS;
    config = { endpoints, limits, timeoutMs: parseVars(crmTimeoutSchema(), env).CRM_TIMEOUT_MS };
    parsed.set(env, config);
  }
  return config;
}

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
