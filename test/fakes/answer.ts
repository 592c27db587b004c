// What the fakes of test/fakes/ share: a JSON answer, and the one delay a "slow" scenario waits.

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

// "Slow" is twice the tests' 500 ms timeouts (PROVIDER_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS), and no
// more: a test that needs a receiver to wait for an event holds it (/held/) instead of sleeping.
const SLOW_MS = 1_000;
export const sleepSlow = () => new Promise((resolve) => setTimeout(resolve, SLOW_MS));

/**
 * A 200 whose JSON body starts at once and then trickles, a space every 50 ms, for SLOW_MS: every byte
 * arrives in time, the whole body never does (a vendor stalled mid-answer).
 */
export function trickling(): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"data":'));
      const started = Date.now();
      timer = setInterval(() => {
        if (Date.now() - started < SLOW_MS) return controller.enqueue(encoder.encode(" "));
        clearInterval(timer);
        controller.enqueue(encoder.encode("null}"));
        controller.close();
      }, 50);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
