import type { Environment } from "./base/environment";
import type { Begin } from "./idempotency/records";
import type { ApiKeyRecord } from "./keys/api-key";
import type { ConsumeResult } from "./rate-limit/rate-limiter";

/** A request's Idempotency-Key, begun by the limiter's call (the rateLimit middleware's `idempotency` option). */
interface BegunKey {
  key: string;
  fingerprint: string;
  begun: Begin;
}

/** Hono's typing of this app: the Worker bindings and the context variables middleware sets. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    environment: Environment;
    apiKey: ApiKeyRecord;
    /** The rate limiter's answer for this request, set by the rateLimit middleware. */
    rateLimit: Promise<ConsumeResult>;
    /** A request's Idempotency-Key as the limiter began it (rateLimit's `idempotency` option). */
    idempotencyKey?: BegunKey;
  };
}
