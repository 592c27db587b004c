import { Hono } from "hono";
import { accountStub } from "../account/stub";
import { parseSuppressionQuery } from "../account/suppression-query";
import type { AppEnv } from "../app-env";
import { readConfig } from "../config";
import { hashKeys, identifierKeys } from "../contact-info/person-keys";
import { parseErasureRequest, parseSuppressionRequest } from "../contact-info/privacy-requests";
import { suppressionKeySchema } from "../contact-info/privacy-views";
import { readJsonBody } from "../http/body";
import { notFound } from "../http/errors";
import { rateLimit } from "../middleware/rate-limit";
import { erasePerson } from "../privacy/erasure";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Erasure of a person across the caller's batches, and the do-not-enrich list (docs/storage.md, "Privacy"). */
export const privacy = new Hono<AppEnv>()
  .post("/erasures", rateLimit("contact_info_request"), async (c) => {
    const { person, suppress } = parseErasureRequest(await readJsonBody(c.req, readConfig(c.env).maxBodyBytes));
    const tenant = { customerId: c.get("apiKey").customerId, environment: c.get("environment") };
    return c.json(await erasePerson(c.env, tenant, person, suppress));
  })
  .get("/erasures/:id", rateLimit("rate_limits", { parallel: true }), async (c) => {
    const id = c.req.param("id");
    const tenant = { customerId: c.get("apiKey").customerId, environment: c.get("environment") };
    // Receipts live in the caller's own account: another customer's id is simply not there.
    const receipt = UUID.test(id) ? await accountStub(c.env, tenant).erasure(id.toLowerCase()) : null;
    if (!receipt) throw notFound("No erasure with this id exists.");
    return c.json(receipt);
  })
  .put("/suppressions", rateLimit("contact_info_request"), async (c) => {
    const people = parseSuppressionRequest(await readJsonBody(c.req, readConfig(c.env).maxBodyBytes));
    const keys = await Promise.all(people.map((person) => hashKeys(identifierKeys(person))));
    const tenant = { customerId: c.get("apiKey").customerId, environment: c.get("environment") };
    const { added } = await accountStub(c.env, tenant).suppress([...new Set(keys.flat())]);
    return c.json({ keys, added });
  })
  .get("/suppressions", rateLimit("rate_limits", { parallel: true }), async (c) => {
    const page = parseSuppressionQuery(c.req.query());
    const tenant = { customerId: c.get("apiKey").customerId, environment: c.get("environment") };
    return c.json(await accountStub(c.env, tenant).suppressions(page));
  })
  .delete("/suppressions/:key", rateLimit("contact_info_request"), async (c) => {
    const key = c.req.param("key");
    const tenant = { customerId: c.get("apiKey").customerId, environment: c.get("environment") };
    const removed = suppressionKeySchema.safeParse(key).success && (await accountStub(c.env, tenant).unsuppress(key));
    if (!removed) throw notFound("This key is not on the suppression list.");
    return c.body(null, 204);
  });
