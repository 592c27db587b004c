// The public API as the page uses it: the typed client (submit, wait, items) and
// the account reads (batches, usage, rate limits), same origin, the pasted key sent
// as x-api-key and nowhere else.
import {
  type Client,
  type CrmClient,
  createClient,
  createCrmClient,
  type Environment,
  parseRateLimit,
  parseRetryAfter,
} from "../client/src/index";
import { problemError } from "../client/src/problem";
import type { operations } from "../client/src/schema";

type BatchList = operations["listContactInfoBatches"]["responses"][200]["content"]["application/json"];
export type UsageReport = operations["getUsage"]["responses"][200]["content"]["application/json"];
type RateLimits = operations["getRateLimits"]["responses"][200]["content"]["application/json"];

export interface Api {
  client: Client;
  /** The CRM routes (…/integrations, …/crm-syncs), with the same key and waits. */
  crm: CrmClient;
  environment: Environment;
  batches(): Promise<BatchList>;
  usage(): Promise<UsageReport>;
  rateLimits(): Promise<RateLimits>;
  /**
   * Any other call of the API under /v2/{environment}: its JSON answer (undefined for one with no body), waiting
   * out a 429 as the client does; an error answer thrown as the client's ProblemError.
   */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<unknown>;
}

export const environmentOf = (apiKey: string): Environment => (apiKey.startsWith("ck_live_") ? "live" : "test");

export function createApi(apiKey: string, onWait?: (seconds: number) => void): Api {
  const environment = environmentOf(apiKey);
  const options = {
    baseUrl: location.origin,
    apiKey,
    environment,
    onWait: ({ seconds }: { seconds: number }) => onWait?.(seconds),
  };
  const client = createClient(options);
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    for (;;) {
      const response = await fetch(`/v2/${environment}${path}`, {
        method,
        headers: {
          "x-api-key": apiKey,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      // A 204, or a 202 with no body (…/redeliver): nothing to read.
      if (response.ok && text === "") return undefined;
      const answer: unknown = await Promise.resolve(text)
        .then(JSON.parse)
        .catch(() => undefined);
      if (response.ok && answer !== undefined) return answer;
      if (response.status !== 429) throw problemError(answer, response);
      const seconds =
        parseRetryAfter(response.headers.get("Retry-After")) ??
        parseRateLimit(response.headers.get("RateLimit"))?.resetSeconds ??
        1;
      onWait?.(seconds);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  };
  // Shaped as the OpenAPI document says (the same generated types the client uses).
  const read = async <T>(path: string): Promise<T> => (await send("GET", path)) as T;
  return {
    client,
    crm: createCrmClient(options),
    environment,
    batches: () => read<BatchList>("/person/contact-info?limit=20"),
    usage: () => read<UsageReport>("/me/usage"),
    rateLimits: () => read<RateLimits>("/me/rate-limits"),
    send,
  };
}
