import type { Environment } from "../base/environment";
import type { ApiKeyRecord } from "../keys/api-key";

/**
 * Who calls an operation, whatever the door (REST route, MCP tool): the Worker's
 * bindings, the caller's key record (auth has checked it) and the environment it acts in.
 */
export interface Caller {
  env: Env;
  apiKey: ApiKeyRecord;
  environment: Environment;
  /** Aborted when the request is gone (the client hung up): work done only for its answer stops. */
  signal?: AbortSignal;
}
