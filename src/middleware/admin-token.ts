import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../base/sha256";
import { notFound } from "../http/errors";

const encoder = new TextEncoder();

/**
 * Lets through only `authorization: Bearer <ADMIN_TOKEN>`. Anything else answers the same 404
 * as a path that does not exist, so the admin API tells nothing to whoever lacks the token. The
 * token is compared as SHA-256 digests in constant time (equal lengths, no early exit).
 * ADMIN_TOKEN is a required secret (wrangler.toml: a deploy without it is refused, since revoking
 * a key at once needs it), so Env types it as set; a server started without it, or with it empty,
 * still has no admin API at all rather than one any token opens.
 */
export const adminToken = () =>
  createMiddleware<{ Bindings: Env }>(async function adminToken(c, next) {
    const expected: string | undefined = c.env.ADMIN_TOKEN;
    const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    if (!expected || given === undefined) throw notFound();
    const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
    if (!crypto.subtle.timingSafeEqual(encoder.encode(a), encoder.encode(b))) throw notFound();
    await next();
  });
