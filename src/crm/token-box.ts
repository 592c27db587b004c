import type { Tenant } from "../base/tenant";
import { tenantName } from "../base/tenant";

// CRM tokens at rest: AES-256-GCM under a key derived (HKDF-SHA-256) from the CRM_TOKEN_SECRET
// Worker secret, a fresh 96-bit IV per token, and the tenant and provider as additional data, so a
// sealed token copied to another customer's row, or another provider's, does not open.

const SECRET_MIN_LENGTH = 32;
let keyOfSecret: { secret: string; key: Promise<CryptoKey> } | undefined;

function tokenKey(env: Env): Promise<CryptoKey> {
  // Typed as set (required in wrangler.toml), checked all the same: person-keys.ts says why.
  const secret: string | undefined = env.CRM_TOKEN_SECRET;
  if (typeof secret !== "string" || secret.length < SECRET_MIN_LENGTH) {
    throw new Error(`CRM_TOKEN_SECRET must be set to a secret of at least ${SECRET_MIN_LENGTH} characters`);
  }
  if (keyOfSecret?.secret !== secret) {
    const key = crypto.subtle
      .importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode("crm-tokens/1") },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keyOfSecret = { secret, key };
  }
  return keyOfSecret.key;
}

const additionalData = (tenant: Tenant, provider: string) =>
  new TextEncoder().encode(`${tenantName(tenant)}:${provider}`);

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unbase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** The token sealed: `v1.<iv>.<ciphertext>`, base64. */
export async function sealToken(env: Env, tenant: Tenant, provider: string, token: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(tenant, provider) },
    await tokenKey(env),
    new TextEncoder().encode(token),
  );
  return `v1.${base64(iv)}.${base64(new Uint8Array(sealed))}`;
}

/** The token a sealed text holds; throws when it was sealed for another tenant or provider, or under another secret. */
export async function openToken(env: Env, tenant: Tenant, provider: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("not a sealed CRM token");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: unbase64(iv), additionalData: additionalData(tenant, provider) },
    await tokenKey(env),
    unbase64(data),
  );
  return new TextDecoder().decode(plain);
}
