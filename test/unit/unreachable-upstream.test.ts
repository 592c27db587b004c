import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { lookupMx } from "../../src/enrichment/mx-lookup";
import { TransientProviderError } from "../../src/enrichment/provider";
import { fetchJson } from "../../src/enrichment/upstream";
import { captureLogs } from "../log-capture";

// Offline (a laptop without network), every source fails to connect: each failure
// is one structured line naming the provider and the reason, and nothing personal.
const unreachable = vi.fn(async (_input: Request | string | URL, _init?: RequestInit): Promise<Response> => {
  throw new TypeError("fetch failed: failed to lookup address information");
});

afterEach(() => {
  vi.restoreAllMocks();
  unreachable.mockClear();
});

describe("an upstream that cannot be reached", () => {
  it("logs one line with the provider and the reason, without the request or a stack", async () => {
    const logs = captureLogs();
    const request = new Request("https://vendor.example/find?email=ada%40analytical.example");
    await expect(
      fetchJson({ provider: "hunter", fetch: unreachable, timeoutMs: 100 }, request, z.unknown()),
    ).rejects.toBeInstanceOf(TransientProviderError);
    expect(logs.lines()).toEqual(['{"event":"upstream_unreachable","provider":"hunter","reason":"network error"}']);
  });
});

describe("an unreachable DNS-over-HTTPS resolver", () => {
  const resolver = "https://unreachable-resolver.test/dns-query";

  it("is not asked again for 30 s, and each lookup in that time still fails transiently with one line", async () => {
    const logs = captureLogs();
    const upstream = { fetch: unreachable, timeoutMs: 100 };
    const start = Date.now();
    await expect(lookupMx("first.example", resolver, upstream, start)).rejects.toBeInstanceOf(TransientProviderError);
    await expect(lookupMx("second.example", resolver, upstream, start + 1_000)).rejects.toBeInstanceOf(
      TransientProviderError,
    );
    expect(unreachable).toHaveBeenCalledTimes(1);
    expect(logs.lines("log")).toEqual([
      '{"event":"upstream_unreachable","provider":"dns","reason":"network error"}',
      '{"event":"upstream_unreachable","provider":"dns","reason":"not asked: unreachable moments ago"}',
    ]);
    await expect(lookupMx("third.example", resolver, upstream, start + 31_000)).rejects.toBeInstanceOf(
      TransientProviderError,
    );
    expect(unreachable).toHaveBeenCalledTimes(2);
  });

  it("asks once when many lookups start together before it ever answered", async () => {
    const logs = captureLogs();
    const upstream = { fetch: unreachable, timeoutMs: 100 };
    const now = Date.now();
    const lookups = ["a.example", "b.example", "c.example"].map((domain) =>
      lookupMx(domain, "https://offline-resolver.test/dns-query", upstream, now),
    );
    for (const lookup of lookups) await expect(lookup).rejects.toBeInstanceOf(TransientProviderError);
    expect(unreachable).toHaveBeenCalledTimes(1);
    expect(logs.lines("log").filter((line) => line.includes('"reason":"network error"'))).toHaveLength(1);
  });
});
