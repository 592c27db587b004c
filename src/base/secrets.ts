// The Worker's secrets come in two kinds. Those it cannot serve without (PERSON_KEY_SECRET,
// CRM_TOKEN_SECRET, ADMIN_TOKEN) are declared in wrangler.toml's `[secrets] required`: `wrangler types`
// types them on Env, and `wrangler deploy` refuses until each is set. The optional ones (each vendor's
// API key, named by its declaration) cannot be declared so, since a deploy must not need them: Env does
// not know them, and they are read here, by name, at the boundary.

/**
 * The optional secret `name` of `env`: its value when set to a non-empty string, else undefined
 * (unset, or set to anything else, counts as not set). Read through Reflect.get, as `env.NAME` would
 * be, so a secret Env does not type is reached without a cast.
 */
export function optionalSecret(env: object, name: string): string | undefined {
  const value: unknown = Reflect.get(env, name);
  return typeof value === "string" && value !== "" ? value : undefined;
}
