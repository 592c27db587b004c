import type { Environment } from "./base/environment";
import type { ApiKeyRecord } from "./keys/api-key";
import type { ConsumeResult } from "./rate-limit/rate-limiter";

/** Hono's typing of this app: the Worker bindings and the context variables middleware sets. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    environment: Environment;
    apiKey: ApiKeyRecord;
    /** The rate limiter's answer for this request, set by the rateLimit middleware. */
    rateLimit: Promise<ConsumeResult>;
  };
}
