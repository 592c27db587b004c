// The public API as the page uses it: the typed client (submit, wait, items) and
// the account reads (batches, usage, rate limits), same origin, the pasted key sent
// as x-api-key and nowhere else.
import { type Client, createClient, type Environment } from "../client/src/index";
import { problemError } from "../client/src/problem";
import type { operations } from "../client/src/schema";

type BatchList = operations["listContactInfoBatches"]["responses"][200]["content"]["application/json"];
export type UsageReport = operations["getUsage"]["responses"][200]["content"]["application/json"];
type RateLimits = operations["getRateLimits"]["responses"][200]["content"]["application/json"];

export interface Api {
  client: Client;
  environment: Environment;
  batches(): Promise<BatchList>;
  usage(): Promise<UsageReport>;
  rateLimits(): Promise<RateLimits>;
}

export const environmentOf = (apiKey: string): Environment => (apiKey.startsWith("ck_live_") ? "live" : "test");

export function createApi(apiKey: string, onWait?: (seconds: number) => void): Api {
  const environment = environmentOf(apiKey);
  const client = createClient({
    baseUrl: location.origin,
    apiKey,
    environment,
    onWait: ({ seconds }) => onWait?.(seconds),
  });
  // Shaped as the OpenAPI document says (the same generated types the client uses).
  const read = async <T>(path: string): Promise<T> => {
    const response = await fetch(`/v2/${environment}${path}`, { headers: { "x-api-key": apiKey } });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok || body === undefined) throw problemError(body, response);
    return body as T;
  };
  return {
    client,
    environment,
    batches: () => read<BatchList>("/person/contact-info?limit=20"),
    usage: () => read<UsageReport>("/me/usage"),
    rateLimits: () => read<RateLimits>("/me/rate-limits"),
  };
}
