import type { Environment } from "./environment";
import type { ApiKeyRecord } from "./keys/api-key";

/** Hono's typing of this app: the Worker bindings and the context variables middleware sets. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    environment: Environment;
    apiKey: ApiKeyRecord;
  };
}
