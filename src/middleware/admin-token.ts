import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../base/sha256";
import { notFound } from "../http/errors";

/** The operator's secret (`wrangler secret put ADMIN_TOKEN`); without it the admin API does not exist. */
type AdminSecrets = { ADMIN_TOKEN?: string };

const encoder = new TextEncoder();

/**
 * Lets through only `authorization: Bearer <ADMIN_TOKEN>`. Anything else, and every
 * request when ADMIN_TOKEN is not set, answers the same 404 as a path that does not
 * exist, so the admin API tells nothing to whoever lacks the token. The token is
 * compared as SHA-256 digests in constant time (equal lengths, no early exit).
 */
export const adminToken = () =>
  createMiddleware<{ Bindings: Env }>(async function adminToken(c, next) {
    const expected = (c.env as Env & AdminSecrets).ADMIN_TOKEN;
    const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    if (!expected || given === undefined) throw notFound();
    const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
    if (!crypto.subtle.timingSafeEqual(encoder.encode(a), encoder.encode(b))) throw notFound();
    await next();
  });
