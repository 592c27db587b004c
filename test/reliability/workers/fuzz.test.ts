import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { PERSON_FIELDS } from "../../../src/contact-info/person";
import { encodeItemCursor } from "../../../src/http/item-cursor";
import { COMPLETE_PERSON } from "../../fixtures";
import { createKey, getStatus, request, submit, submitBatch } from "../../helpers";

// Property-based fuzzing of everything a caller controls. Whatever comes in:
// never a 5xx, every error is problem+json with a code, and no rejected
// request leaves a batch behind.
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const high = { limit: 10_000_000, windowSeconds: 60 };
const limits = { contact_info_request: high, contact_info_status: high, rate_limits: high };

let testKey: string;
let liveKey: string;
let batchId: string;

beforeAll(async () => {
  testKey = (await createKey({ rateLimits: limits })).key;
  liveKey = (await createKey({ environment: "live", rateLimits: limits })).key;
  batchId = await submitBatch(testKey, { items: [{ email: "fuzz@example.com" }, { email: "fuzz2@example.com" }] });
});

async function expectWellFormed(response: Response, method: string) {
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400 && method !== "HEAD") {
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json<{ code: unknown; status: unknown }>();
    expect(typeof body.code).toBe("string");
    expect(body.status).toBe(response.status);
  } else {
    await response.body?.cancel();
  }
}

const person = fc.record(
  {
    externalId: fc.string(),
    firstName: fc.oneof(fc.string(), fc.constant("Ada")),
    lastName: fc.oneof(fc.string(), fc.constant("Lovelace")),
    fullName: fc.string({ maxLength: 600 }),
    companyName: fc.string(),
    companyDomain: fc.oneof(fc.domain(), fc.string(), fc.constantFrom("notfound.test", "flaky.test")),
    linkedinUrl: fc.oneof(
      fc.webUrl(),
      fc.string().map((s) => `https://linkedin.com/in/${s}`),
    ),
    email: fc.oneof(fc.emailAddress(), fc.string()),
  },
  { requiredKeys: [] },
);
const item = fc.oneof(
  { weight: 4, arbitrary: person },
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: fc.dictionary(fc.string(), fc.jsonValue()) },
);
const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          items: fc.array(item, { maxLength: 4 }),
          fields: fc.option(fc.array(fc.string()), { nil: undefined }),
          webhookUrl: fc.option(fc.oneof(fc.webUrl(), fc.string()), { nil: undefined }),
          webhookEvents: fc.option(
            fc.oneof(fc.array(fc.constantFrom("batch.completed", "item.completed", "item.failed")), fc.jsonValue()),
            {
              nil: undefined,
            },
          ),
        },
        { requiredKeys: [] },
      )
      .map((b) => JSON.stringify(b)),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => new TextDecoder().decode(bytes)) },
);
const contentType = fc.oneof(
  fc.constant("application/json"),
  fc.constant("application/json; charset=utf-8"),
  fc.constant(""),
  fc.string(),
  fc.constant("text/plain"),
);
const apiKey = () =>
  fc.oneof(
    fc.constant(testKey),
    fc.constant(liveKey),
    fc.constant(undefined),
    fc.string(),
    fc.constant("ck_test_00000000000000000000000000000000"),
  );
const environment = fc.oneof(fc.constantFrom("test", "live"), fc.string({ maxLength: 8 }));
const idempotencyKey = fc.option(fc.string({ maxLength: 300 }), { nil: undefined });

describe("fuzzing", () => {
  it("submits: never a 5xx, always problem+json, and a batch only for a 202", async () => {
    const before = (await listDurableObjectIds(env.BATCHES)).length;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        body,
        contentType,
        apiKey(),
        environment,
        idempotencyKey,
        async (payload, type, key, env_, idem) => {
          const headers: Record<string, string> = {};
          if (type) headers["content-type"] = type;
          if (idem !== undefined) headers["idempotency-key"] = idem;
          const response = await request(`/v2/${encodeURIComponent(env_)}/person/contact-info`, {
            method: "POST",
            headers,
            body: payload,
            ...(key ? { key } : {}),
          });
          if (response.status === 202 && response.headers.get("idempotent-replayed") !== "true") accepted++;
          await expectWellFormed(response, "POST");
        },
      ),
      { numRuns: RUNS },
    );
    expect((await listDurableObjectIds(env.BATCHES)).length - before).toBe(accepted);
  });

  it("reads: paths, ids, cursors and query strings never cause a 5xx", async () => {
    const id = fc.oneof(fc.constant(batchId), fc.uuid(), fc.string(), fc.constant(batchId.toUpperCase()));
    const cursor = fc.oneof(fc.string(), fc.nat().map(encodeItemCursor), fc.base64String(), fc.constant(""));
    const query = fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom("limit", "cursor", "status"), fc.string()),
        fc.oneof(fc.string(), fc.integer().map(String), cursor),
      ),
      { maxLength: 4 },
    );
    const method = fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
    const path = fc.oneof(
      fc
        .tuple(environment, id)
        .map(([e, i]) => `/v2/${encodeURIComponent(e)}/person/contact-info/${encodeURIComponent(i)}`),
      environment.map((e) => `/v2/${encodeURIComponent(e)}/me/rate-limits`),
      fc.array(fc.string(), { maxLength: 5 }).map((segments) => `/${segments.map(encodeURIComponent).join("/")}`),
      fc.webPath(),
    );
    await fc.assert(
      fc.asyncProperty(path, query, method, apiKey(), async (p, q, m, key) => {
        const search = new URLSearchParams(q).toString();
        const response = await request(`${p}${search ? `?${search}` : ""}`, { method: m, ...(key ? { key } : {}) });
        await expectWellFormed(response, m);
      }),
      { numRuns: RUNS },
    );
  });
});

// Input that breaks decoders and stores rather than schemas: a malformed
// percent-escape in the LinkedIn slug (decodeURIComponent throws on it), and an
// unpaired surrogate or a control character anywhere in any field. Only that
// item may fail, with invalid_input; the batch is accepted with the rest.
describe("fuzzing items with undecodable input", () => {
  const complete = COMPLETE_PERSON;
  const hex = fc.integer({ min: 0, max: 255 }).map((n) => n.toString(16).padStart(2, "0"));
  const malformedEscape = fc.oneof(
    fc.constantFrom("%", "%z", "%zz", "%g0", "%ff", "%c0%af", "%e2%82", "%ed%a0%80", "%f4%90%80%80"),
    hex.map((h) => `%${h[0]}`),
    fc.integer({ min: 0x80, max: 0xbf }).map((n) => `%${n.toString(16)}`),
  );
  const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
  const control = fc
    .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
    .filter((code) => code !== 0x09 && code !== 0x0a && code !== 0x0d)
    .map((code) => String.fromCharCode(code));
  const poisoned = fc.oneof(
    fc
      .tuple(malformedEscape, fc.constantFrom("jane", "ab", "x-y"))
      .map(([percentEscape, name]) => ({ linkedinUrl: `https://www.linkedin.com/in/${name}${percentEscape}` })),
    fc.tuple(fc.constantFrom(...PERSON_FIELDS), fc.oneof(loneSurrogate, control), fc.nat()).map(([field, junk, at]) => {
      const value = complete[field];
      const i = at % (value.length + 1);
      return { ...complete, [field]: value.slice(0, i) + junk + value.slice(i) };
    }),
  );

  it("fails only the poisoned item with invalid_input, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(poisoned, fc.boolean(), async (bad, badFirst) => {
        const good = { email: "fuzz-good@example.com" };
        const response = await submit(testKey, { items: badFirst ? [bad, good] : [good, bad] });
        expect(response.status).toBe(202);
        const { batchId } = await response.json<{ batchId: string }>();
        const { items } = await getStatus(testKey, batchId);
        const [badItem, goodItem] = badFirst ? items : [items[1], items[0]];
        expect(badItem).toMatchObject({ status: "failed", error: { code: "invalid_input" } });
        expect(goodItem?.error?.code).not.toBe("invalid_input");
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
  });
});
