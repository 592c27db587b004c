import { readConfig } from "../base/config";
import { invalidApiKey } from "../http/errors";
import type { Begin } from "../idempotency/records";
import { type EndpointType, effectiveSettings } from "../rate-limit/endpoint-types";
import type { ConsumeResult, IdempotencyRequest } from "../rate-limit/rate-limiter";
import { limiterStub } from "../rate-limit/stub";
import type { Caller } from "./caller";

/**
 * Counts one call against its customer's limit for `endpointType` in this environment
 * (one Durable Object call, shared by all the customer's keys and every door). The limits
 * in force are those on the calling key's record. A revoked key (the limiter holds the
 * customer's revocations) is refused like an unknown one, whatever copy of its record auth had cached.
 * A request with an Idempotency-Key has it begun by the same call, once allowed (`begun`).
 */
export async function admit(
  { env, apiKey }: Caller,
  endpointType: EndpointType,
  { withUsage = false, idempotency }: { withUsage?: boolean; idempotency?: IdempotencyRequest } = {},
): Promise<ConsumeResult & { begun?: Begin }> {
  const answer = await limiterStub(env, apiKey).admit(
    apiKey.keyId,
    endpointType,
    effectiveSettings(readConfig(env), apiKey.rateLimits),
    idempotency ? { withUsage, idempotency } : { withUsage },
  );
  if (answer.revoked) throw invalidApiKey();
  return answer;
}
