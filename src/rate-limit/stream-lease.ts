import type { Tenant } from "../base/tenant";
import { invalidApiKey, tooManyStreams } from "../http/errors";
import type { EndpointType, RateLimitSetting } from "./endpoint-types";
import { rateLimited } from "./rate-limited";
import type { Renewal } from "./stream-leases";
import { limiterStub } from "./stub";

/** An open event stream's place, held from its customer's limiter until `release`. */
export interface HeldStream {
  /** Keeps the place; anything but "renewed" means the stream must end now. */
  renew(): Promise<Renewal>;
  release(): Promise<void>;
}

/**
 * Takes a place for one more event stream of key `keyId` on `batchId`, or throws the problem
 * that says why not: 401 for a revoked key, 429 `too_many_streams` over a cap on streams,
 * 429 `rate_limited` when the customer's status budget has no unit left for it to hold.
 */
export async function holdStream(
  env: Env,
  tenant: Tenant,
  keyId: string,
  batchId: string,
  limits: Record<EndpointType, RateLimitSetting>,
): Promise<HeldStream> {
  const limiter = limiterStub(env, tenant);
  const answer = await limiter.openStream(keyId, batchId, limits);
  if (answer.kind === "revoked") throw invalidApiKey();
  if (answer.kind === "rate_limited") throw rateLimited("contact_info_status", answer.decision);
  if (answer.kind === "refused") throw tooManyStreams(answer.scope, answer.max, answer.retryAfterSeconds);
  const { leaseId } = answer;
  return {
    renew: () => limiter.renewStream(leaseId),
    release: () => limiter.closeStream(leaseId),
  };
}
