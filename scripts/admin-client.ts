// The key tool's side of the admin API (src/admin/admin-api.ts). The token is read from the
// environment and sent only in the Authorization header: never printed, logged or put on a
// command line.
import type { Revocation } from "../src/tools-api";
import { isLoopback } from "./base-url";
import { DEV_SECRETS } from "./dev-keys";

/**
 * CONTACT_INFO_ADMIN_TOKEN, else (against a server on this machine) the development token `npm run dev`
 * sets (scripts/dev-secrets.env); undefined if neither applies.
 */
export function adminToken(baseUrl: string): string | undefined {
  return process.env.CONTACT_INFO_ADMIN_TOKEN || (isLoopback(baseUrl) ? DEV_SECRETS.ADMIN_TOKEN : undefined);
}

// A revocation is one Durable Object call: a server that has not answered by then is not coming.
const ADMIN_TIMEOUT_MS = 10_000;

/** Tells the running service a key is revoked, so its limiter refuses it at once. Answers what went wrong, or null. */
export async function sendRevocation(baseUrl: string, token: string, revocation: Revocation): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/admin/revocations`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(revocation),
      signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
    });
  } catch {
    return `nothing answered at ${baseUrl}`;
  }
  await response.body?.cancel();
  if (response.status === 204) return null;
  if (response.status === 404)
    return `${baseUrl} refused the admin token (404: is ADMIN_TOKEN set there, and the same as CONTACT_INFO_ADMIN_TOKEN?)`;
  return `${baseUrl} answered ${response.status}`;
}
