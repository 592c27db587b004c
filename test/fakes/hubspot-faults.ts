// A fake HubSpot portal that misbehaves, as a test sets it (POST /__fake/fault { token, fault }), for the
// rule that a vendor's fault is said as one (src/crm/crm-http.ts) and that every paged read ends:
// - "endless-empty": the list's first memberships page, then empty pages, each with a new `paging.next`;
// - "endless-short": memberships pages of one member each, each with a new `paging.next`, for ever;
// - "slow-pages": the same, each page answered after 50 ms (so a test can hang up in the middle);
// - "repeat-cursor": memberships pages each name the same `paging.next`;
// - "html": every API call answers 200 with an HTML page;
// - "shape": every API call answers 200 with JSON of no documented shape;
// - "stall": every API call answers 200 and the start of a body that never ends;
// - "trickle": every API call answers 200 and a byte of body every 100 ms, for ever;
// - "missing-scopes": every API call answers 403 MISSING_SCOPES (as HubSpot does for a token without a scope);
// - "forbidden": every API call answers 403 with no scope named.
// Account details still answer, so a connection can be saved first. A stalled or trickling body stops
// when the caller cancels it (the stream's cancel), so nothing outlives the test.
import { json } from "./answer.ts";

export const FAULTS = [
  "endless-empty",
  "endless-short",
  "slow-pages",
  "repeat-cursor",
  "html",
  "shape",
  "stall",
  "trickle",
  "missing-scopes",
  "forbidden",
] as const;
export type Fault = (typeof FAULTS)[number];

const TRICKLE_MS = 100;
const SLOW_PAGE_MS = 50;
// A stalled or trickling body ends by itself after this long at most, whoever forgets to cancel it (the
// timers keep no process alive).
const MAX_BODY_MS = 15_000;

function endlessBody(trickle: boolean): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  let end: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearInterval(timer);
    clearTimeout(end);
  };
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.encode('{"results": ['));
      const more = () => {
        try {
          controller.enqueue(bytes.encode(" "));
        } catch {
          stop();
        }
      };
      if (trickle) timer = setInterval(more, TRICKLE_MS);
      end = setTimeout(() => {
        stop();
        controller.close();
      }, MAX_BODY_MS);
      timer?.unref?.();
      end.unref?.();
    },
    cancel: stop,
  });
}

const page = (ids: readonly string[], after: number) =>
  json({ results: ids.map((recordId) => ({ recordId })), paging: { next: { after: String(after) } } });

/**
 * The answer of a portal with `fault` to an API call (`members`: the list's, for a memberships call),
 * or null when the call is answered as documented.
 */
export function faultyAnswer(fault: Fault, url: URL, members: readonly string[]): Response | Promise<Response> | null {
  const memberships = /\/memberships$/.test(url.pathname);
  const after = Number(url.searchParams.get("after") ?? 0);
  switch (fault) {
    case "endless-empty":
      return memberships ? page(after === 0 ? members.slice(0, 250) : [], after + 250) : null;
    case "endless-short":
      return memberships ? page([String(1_000_000 + after)], after + 1) : null;
    case "slow-pages":
      return memberships
        ? new Promise((resolve) =>
            setTimeout(() => resolve(page([String(1_000_000 + after)], after + 1)), SLOW_PAGE_MS),
          )
        : null;
    case "repeat-cursor":
      return memberships ? page(members.slice(0, 1), 250) : null;
    case "html":
      return new Response("<!doctype html><title>Maintenance</title><p>Back soon.</p>", {
        headers: { "content-type": "text/html" },
      });
    case "shape":
      return json({ data: { items: "not what the documentation says" } });
    case "stall":
    case "trickle":
      return new Response(endlessBody(fault === "trickle"), { headers: { "content-type": "application/json" } });
    case "missing-scopes":
      return json(
        {
          status: "error",
          message: "This app hasn't been granted all required scopes to make this call.",
          category: "MISSING_SCOPES",
          errors: [
            {
              message: "One or more of the following scopes are required.",
              context: { requiredGranularScopes: ["crm.lists.read"] },
            },
          ],
        },
        403,
      );
    case "forbidden":
      return json({ status: "error", message: "Forbidden", category: "FORBIDDEN" }, 403);
  }
}
