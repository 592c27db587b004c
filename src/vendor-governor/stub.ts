import { sha256Hex } from "../base/sha256";

/**
 * The governor of one vendor API key: one object per vendor and key, named by the
 * key's SHA-256, so the key itself is never in an object id, a name or a log. Every
 * consumer using that key shares it.
 */
export async function governorStub(env: Env, vendor: string, apiKey: string) {
  return env.VENDOR_GOVERNORS.getByName(`${vendor}:${await sha256Hex(apiKey)}`);
}

/** The daily call ceiling of one vendor (VendorCeiling): one object per vendor name, shared by every key and consumer. */
export const ceilingStub = (env: Env, vendor: string) => env.VENDOR_CEILINGS.getByName(vendor);
