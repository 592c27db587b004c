import type { BatchOwner } from "../batch/contract";

/**
 * The account of one customer in one environment: its batch list and usage.
 * The environment cannot contain ":", so names never collide.
 */
export function accountStub(env: Env, { customerId, environment }: BatchOwner) {
  return env.ACCOUNTS.getByName(`${environment}:${customerId}`);
}
